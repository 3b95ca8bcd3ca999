// Clicks on the board and the panel's links fetch the next page and swap it in place, so the
// attack panel appears without a full reload. Without JavaScript the same links simply load.
"use strict";

(function () {
  var busy = false;

  function swap(url, push) {
    if (busy) { return; }
    busy = true;
    fetch(url, { headers: { "accept": "text/html" }, credentials: "same-origin" })
      .then(function (response) { return response.text().then(function (text) {
        return { ok: response.ok || response.status === 422, text: text, url: response.url };
      }); })
      .then(function (page) {
        var doc = new DOMParser().parseFromString(page.text, "text/html");
        var next = doc.getElementById("sandbox");
        var here = document.getElementById("sandbox");
        if (!next || !here) { window.location.href = url; return; }
        here.replaceWith(next);
        if (push) { history.pushState({}, "", page.url || url); }
        document.title = doc.title;
      })
      .catch(function () { window.location.href = url; })
      .then(function () { busy = false; });
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) { return; }
    var link = event.target.closest ? event.target.closest("a[data-pjax]") : null;
    if (!link) { return; }
    var href = link.getAttribute("href") || link.getAttributeNS("http://www.w3.org/1999/xlink", "href");
    if (!href) { return; }
    event.preventDefault();
    swap(href, true);
  });

  window.addEventListener("popstate", function () { swap(window.location.href, false); });
})();
