// Clicks on the board and the panel's links fetch the next page and swap it in place, so the
// attack panel appears without a full reload. Without JavaScript the same links simply load.
// The address bar follows the click at once (pushState), then settles on the address the
// server answered from (replaceState, after a redirect); a newer click wins over an older one
// still loading, so the page and the address never fall a click behind.
"use strict";

(function () {
  var latest = 0;

  function swap(url, push) {
    var ticket = ++latest;
    if (push) { history.pushState({}, "", url); }
    fetch(url, { headers: { "accept": "text/html" }, credentials: "same-origin" })
      .then(function (response) { return response.text().then(function (text) {
        return { text: text, url: response.url };
      }); })
      .then(function (page) {
        if (ticket !== latest) { return; }
        var doc = new DOMParser().parseFromString(page.text, "text/html");
        var next = doc.getElementById("sandbox");
        var here = document.getElementById("sandbox");
        if (!next || !here) { window.location.href = url; return; }
        here.replaceWith(next);
        if (page.url && page.url !== window.location.href) {
          history.replaceState({}, "", page.url);
        }
        document.title = doc.title;
      })
      .catch(function () { if (ticket === latest) { window.location.href = url; } });
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) { return; }
    var link = event.target.closest ? event.target.closest("a[data-pjax]") : null;
    if (!link) { return; }
    var href = link.getAttribute("href") || link.getAttributeNS("http://www.w3.org/1999/xlink", "href");
    if (!href) { return; }
    event.preventDefault();
    swap(new URL(href, window.location.href).href, true);
  });

  window.addEventListener("popstate", function () { swap(window.location.href, false); });
})();
