// The contribution form: disable the button once the form is sent. The server records a
// rendered form once whatever happens (its key), so this only spares a needless request.
// The "what would $X do" form: say that the answer is being worked out while the page waits.
(function () {
  "use strict";
  function sendOnce(formId, buttonId, onSend) {
    var form = document.getElementById(formId);
    if (!form) { return; }
    form.addEventListener("submit", function () {
      var button = document.getElementById(buttonId);
      if (button) { window.setTimeout(function () { button.disabled = true; }, 0); }
      if (onSend) { onSend(); }
    });
  }
  sendOnce("contribute-form", "contribute-button");
  sendOnce("effect-form", "effect-button", function () {
    var progress = document.getElementById("effect-progress");
    if (progress) { progress.hidden = false; }
  });
})();
