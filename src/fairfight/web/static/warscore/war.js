// The war file checked as you type, with the command line's readers on the server.
"use strict";

(function () {
  var W = window.fairfightWarscore;
  var area = document.getElementById("war-yaml");
  var slot = document.getElementById("err-war");
  var status = document.getElementById("live-status");
  var body = document.getElementById("result-body");
  var sequence = 0;

  function check() {
    var mine = ++sequence;
    status.textContent = "checking…";
    fetch("/api/warscore/war/check", {
      method: "POST", headers: { "content-type": "application/json", "accept": "application/json" },
      body: JSON.stringify({ yaml: area.value })
    }).then(function (response) { return response.json(); }).then(function (answer) {
      if (mine !== sequence) { return; }
      var errors = answer.errors || [];
      if (answer.valid === undefined) { errors = [{ field: answer.field, message: answer.message }]; }
      slot.textContent = errors.length ? "✗ " + errors[0].field + ": " + errors[0].message : "";
      area.setAttribute("aria-invalid", errors.length ? "true" : "false");
      status.textContent = errors.length ? "✗ not accepted" : "✓ accepted";
      if (answer.valid) {
        body.textContent = "";
        body.appendChild(W.postsBlock(answer));
        W.showCopyButtons(body);
      }
    }).catch(function () { status.textContent = "could not check (offline?)"; });
  }

  area.addEventListener("input", W.debounce(check, 300));
  W.showCopyButtons(document);
})();
