// Validation as you type: the form's fields go to /api/warscore/check, which answers with
// every refusal by field, or the scored battle and its forum posts. No number is computed here.
"use strict";

(function () {
  var W = window.fairfightWarscore;
  var form = document.getElementById("battle-form");
  var status = document.getElementById("live-status");
  var errorsBox = document.getElementById("result-errors");
  var body = document.getElementById("result-body");
  var sequence = 0;

  function showErrors(errors) {
    var byField = {};
    errors.forEach(function (e) { if (!(e.field in byField)) { byField[e.field] = e.message; } });
    form.querySelectorAll("[data-error-for]").forEach(function (slot) {
      var name = slot.dataset.errorFor;
      var message = byField[name];
      slot.textContent = message ? "✗ " + message : "";
      var holder = slot.closest(".wf-field");
      if (holder) { holder.classList.toggle("has-error", Boolean(message)); }
      var input = form.querySelector('[name="' + name + '"]');
      if (input && input.type !== "checkbox") {
        if (message) { input.setAttribute("aria-invalid", "true"); }
        else { input.removeAttribute("aria-invalid"); }
      }
    });
    errorsBox.textContent = "";
    if (errors.length) {
      errorsBox.appendChild(W.el("p", "✗ Not accepted:", "error"));
      var list = W.el("ul", null, "error");
      errors.forEach(function (e) {
        var item = W.el("li");
        item.appendChild(W.el("code", e.field));
        item.appendChild(document.createTextNode(": " + e.message));
        list.appendChild(item);
      });
      errorsBox.appendChild(list);
    }
  }

  function showResult(answer) {
    body.textContent = "";
    if (!answer.valid) {
      body.appendChild(W.el("p", "Fix the fields marked ✗ to see the forum post.", "muted"));
      return;
    }
    var r = answer.result;
    body.appendChild(W.el("p", "✓ " + (r.percent !== null ? r.percent + "% " : "") + r.outcome,
                          "wf-verdict")).id = "verdict";
    var table = W.el("table", null, "wf-totals");
    var head = W.el("tr");
    ["Army", "Troops", "Support", "Morale", "Defensives", "Technology", "Total"].forEach(
      function (h, i) { head.appendChild(W.el("th", h, i ? "num" : "")); });
    table.appendChild(W.el("thead")).appendChild(head);
    var tbody = table.appendChild(W.el("tbody"));
    ["attacker", "defender"].forEach(function (side) {
      var a = r[side];
      var row = W.el("tr");
      row.appendChild(W.el("th", side.charAt(0).toUpperCase() + side.slice(1) + " · " + a.nation));
      [a.troops, a.support, a.morale, a.defensives || "N/A", a.technology].forEach(function (v) {
        row.appendChild(W.el("td", v, "num"));
      });
      var total = W.el("td", a.total || "breaks", "num total");
      total.dataset.side = side;
      row.appendChild(total);
      tbody.appendChild(row);
    });
    var wrap = W.el("div", null, "table-wrap");
    wrap.appendChild(table);
    body.appendChild(wrap);
    body.appendChild(W.postsBlock(answer));
    W.showCopyButtons(body);
  }

  function check() {
    var mine = ++sequence;
    status.textContent = "checking…";
    fetch("/api/warscore/check", {
      method: "POST", body: new URLSearchParams(new FormData(form)),
      headers: { "accept": "application/json" }
    }).then(function (response) { return response.json(); }).then(function (answer) {
      if (mine !== sequence) { return; }
      status.textContent = answer.valid ? "✓ accepted" : "✗ " + answer.errors.length + " to fix";
      showErrors(answer.errors || []);
      if (answer.valid !== undefined) { showResult(answer); }
    }).catch(function () { status.textContent = "could not check (offline?)"; });
  }

  var later = W.debounce(check, 250);
  form.addEventListener("input", later);
  form.addEventListener("change", later);
  W.showCopyButtons(document);
  document.documentElement.classList.add("js");
})();
