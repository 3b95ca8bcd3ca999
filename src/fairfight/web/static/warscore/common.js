// Shared by the war score pages: posting to the JSON API and the copy buttons.
"use strict";

window.fairfightWarscore = (function () {
  function showCopyButtons(root) {
    root.querySelectorAll("button.copy").forEach(function (button) {
      button.hidden = false;
      if (button.dataset.bound) { return; }
      button.dataset.bound = "1";
      button.addEventListener("click", function () {
        var area = document.getElementById(button.dataset.copy);
        var done = function () { button.textContent = "Copied ✓"; };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(area.value).then(done, function () {
            area.select(); document.execCommand("copy"); done();
          });
        } else { area.select(); document.execCommand("copy"); done(); }
      });
    });
  }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }

  function postsBlock(answer) {
    var wrap = el("div", null, "wf-posts");
    [["post-text", "Forum post, plain text", answer.text, "Copy text"],
     ["post-bbcode", "Forum post, BBCode", answer.bbcode, "Copy BBCode"]].forEach(function (p) {
      var box = el("div", null, "wf-post");
      box.appendChild(el("h3", p[1]));
      var area = el("textarea"); area.id = p[0]; area.readOnly = true; area.rows = 18;
      area.value = p[2]; area.setAttribute("aria-label", p[1]);
      box.appendChild(area);
      var button = el("button", p[3], "copy"); button.type = "button"; button.dataset.copy = p[0];
      box.appendChild(button);
      wrap.appendChild(box);
    });
    return wrap;
  }

  function debounce(fn, ms) {
    var timer = null;
    return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  return { showCopyButtons: showCopyButtons, el: el, postsBlock: postsBlock, debounce: debounce };
})();
