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

// The NWS form: checked as you type through /api/warscore/nws/check.
(function () {
  var W = window.fairfightWarscore;
  var form = document.getElementById("nws-form");
  if (!form) { return; }
  var status = document.getElementById("nws-status");
  var box = document.getElementById("nws-result");
  var sequence = 0;

  function check() {
    var mine = ++sequence;
    fetch("/api/warscore/nws/check", {
      method: "POST", body: new URLSearchParams(new FormData(form)),
      headers: { "accept": "application/json" }
    }).then(function (response) { return response.json(); }).then(function (answer) {
      if (mine !== sequence) { return; }
      var byField = {};
      (answer.errors || []).forEach(function (e) { byField[e.field] = byField[e.field] || e.message; });
      form.querySelectorAll("[data-error-for]").forEach(function (slot) {
        var message = byField[slot.dataset.errorFor];
        slot.textContent = message ? "✗ " + message : "";
      });
      status.textContent = answer.valid ? "✓ accepted" : "✗ " + answer.errors.length + " to fix";
      box.textContent = "";
      if (!answer.valid) { return; }
      var n = answer.result;
      var head = n.nation + " (" + n.year + "): NWS " + n.total +
        (n.capitulates ? " — capitulates" : n.sues_for_peace ? " — must sue for peace" : "");
      box.appendChild(W.el("p", "✓ " + head, "wf-verdict")).id = "nws-total";
      var wrap = W.el("div", null, "wf-posts");
      [["nws-text", "Forum block", answer.text, "Copy text"],
       ["nws-yaml", "War file lines", n.yaml, "Copy YAML"]].forEach(function (p) {
        var cell = W.el("div", null, "wf-post");
        cell.appendChild(W.el("h3", p[1]));
        var area = W.el("textarea"); area.id = p[0]; area.readOnly = true; area.rows = 11;
        area.value = p[2]; area.setAttribute("aria-label", p[1]);
        cell.appendChild(area);
        var button = W.el("button", p[3], "copy"); button.type = "button"; button.dataset.copy = p[0];
        cell.appendChild(button);
        wrap.appendChild(cell);
      });
      box.appendChild(wrap);
      W.showCopyButtons(box);
    }).catch(function () { status.textContent = "could not check (offline?)"; });
  }

  var later = W.debounce(check, 250);
  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
