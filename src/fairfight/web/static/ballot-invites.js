// Copy buttons for the invite links: shown only where the clipboard can be written (without
// a script the links are plain text to select and copy).
(function () {
  "use strict";
  if (!navigator.clipboard) { return; }
  var said = document.getElementById("copied");
  document.querySelectorAll("button.copy").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var link = document.getElementById(button.dataset.copy).textContent;
      navigator.clipboard.writeText(link).then(function () {
        said.textContent = button.textContent.replace("Copy ", "Copied ") + ".";
      }, function () {
        said.textContent = "The browser refused the copy: select the link and copy it.";
      });
    });
  });
})();
