// Live updates for the season home, the stream overlay and episode pages: listen to the season's event stream,
// then re-fetch this page and swap in the sections marked data-live. The server renders
// everything; this script computes nothing itself. Without JavaScript the pages still work.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource || !window.fetch || !window.DOMParser) { return; }
  var status = document.getElementById("live-status");
  var page = live.getAttribute("data-page");
  var refreshing = false;
  var again = false;

  function say(text) { if (status) { status.textContent = text; } }

  // While the title odds are being computed on the server, look again every few seconds.
  var forecastLooks = 0;
  function followForecast() {
    var shown = document.getElementById("forecast-status");
    var state = shown && shown.getAttribute("data-status");
    if (page === "home" && (state === "computing" || state === "updating") && forecastLooks < 40) {
      forecastLooks += 1;
      window.setTimeout(refresh, 3000);
    }
  }

  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(window.location.pathname + window.location.search, { headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live][id]").forEach(function (old) {
          var replacement = fresh.getElementById(old.id);
          if (replacement) { old.replaceWith(document.importNode(replacement, true)); }
          else { old.remove(); } // e.g. the title odds, gone once the title is decided
        });
      })
      .catch(function () { /* the next event retries */ })
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); } else { followForecast(); }
      });
  }

  var source = new EventSource(live.getAttribute("data-events"));
  source.addEventListener("battle", function (message) {
    var data = JSON.parse(message.data);
    if (page === "episode") {
      var link = document.getElementById("next-link");
      var text = "Battle " + data.number + " has aired: " + data.headline;
      say(text);
      if (link && !link.querySelector("a")) {
        var a = document.createElement("a");
        a.href = data.url; a.rel = "next"; a.textContent = "Battle " + data.number;
        link.appendChild(a);
      }
      return;
    }
    say("Battle " + data.number + " has aired: " + data.headline);
    // the overlay's watch panel (overlay.js) plays the episode from this one stream
    document.dispatchEvent(new CustomEvent("season-battle", { detail: data }));
    forecastLooks = 0;
    refresh();
  });
  source.addEventListener("ledger", function () { if (page === "home") { refresh(); } });
  // A new signed head (after a battle, a contribution, the beacon or the reveal): the home
  // shows the latest one in its "save this" section.
  source.addEventListener("head", function () { if (page === "home") { refresh(); } });
  // The server no longer keeps the events this page missed (it was away too long, or the
  // service was restored): the page itself is the only complete picture, so load it again.
  source.addEventListener("stale", function () {
    source.close();
    say("Catching up: reloading the page.");
    window.location.reload();
  });
  window.addEventListener("pagehide", function () { source.close(); });
  followForecast();
})();
