// The contribution form: disable the button once the form is sent. The server records a
// rendered form once whatever happens (its key), so this only spares a needless request.
(function () {
  "use strict";
  var form = document.getElementById("contribute-form");
  if (!form) { return; }
  form.addEventListener("submit", function () {
    var button = document.getElementById("contribute-button");
    if (button) { window.setTimeout(function () { button.disabled = true; }, 0); }
  });
})();
