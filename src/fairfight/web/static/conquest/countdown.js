// The next episode's countdown (templates/conquest/_countdown.html), kept live: the "in ..."
// words tick from the <time datetime> the server rendered; once the slot's time has come,
// the script asks /api/seasons/ID/schedule for the next one and shows the server's words.
// Only news (an episode on air, the next one set, a pause) goes to the polite live region,
// never the ticking. Without JavaScript the server-rendered sentence stays as it is.
(function () {
  "use strict";
  if (!window.fetch) { return; }
  var LOOKS = 30;          // how many times to ask for the next slot once one has come
  var LOOK_EVERY_MS = 2000;

  function words(seconds) {  // the same words as fairfight.conquest.schedule.duration_words
    var days = Math.floor(seconds / 86400), rest = seconds % 86400;
    var hours = Math.floor(rest / 3600), minutes = Math.floor((rest % 3600) / 60);
    if (days) { return hours ? days + " d " + hours + " h" : days + " d"; }
    if (hours) { return minutes ? hours + " h " + minutes + " min" : hours + " h"; }
    if (minutes) { return minutes + " min"; }
    return seconds + " s";
  }

  function element(id) { return document.getElementById(id); }
  function news(text) { var region = element("countdown-news"); if (region) { region.textContent = text; } }

  var looks = 0;
  var looking = false;

  function show(view) {
    var line = element("countdown");
    if (!line) { return; }
    line.setAttribute("data-status", view.status);
    if (view.status !== "scheduled") {
      line.textContent = "Season " + view.season + ": " + view.text;
      news(view.text);
      return;
    }
    var time = line.querySelector("time");
    var battle = line.querySelector(".countdown-battle");
    if (!time || !battle) { line.textContent = view.text; return; }
    time.setAttribute("datetime", view.at);
    time.textContent = view.at_text;
    battle.textContent = String(view.battle);
    news("Next episode: battle " + view.battle + " at " + view.at_text + ".");
    tick();
  }

  function lookForNext(previousAt) {
    var line = element("countdown");
    if (!line || looking || looks >= LOOKS) { return; }
    looking = true;
    looks += 1;
    fetch(line.getAttribute("data-schedule-url"), { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        var view = body && body.countdown;
        if (view && (view.status !== "scheduled" || view.at !== previousAt)) { looks = 0; show(view); }
      })
      .catch(function () { /* asked again on the next tick */ })
      .then(function () { looking = false; });
  }

  var lastLook = 0;
  function tick() {
    var line = element("countdown");
    if (!line || line.getAttribute("data-status") !== "scheduled") { return; }
    var time = line.querySelector("time");
    var left = line.querySelector(".countdown-in");
    if (!time || !left) { return; }
    var at = time.getAttribute("datetime");
    var seconds = Math.max(0, Math.round((Date.parse(at) - Date.now()) / 1000));
    var text = seconds > 0 ? "in " + words(seconds) : "now";
    if (left.textContent !== text) { left.textContent = text; }
    if (seconds === 0) {
      if (looks === 0 && !looking) { news("Battle " + line.querySelector(".countdown-battle").textContent + " is airing now."); }
      if (Date.now() - lastLook >= LOOK_EVERY_MS) { lastLook = Date.now(); lookForNext(at); }
    }
  }

  if (element("countdown")) {
    tick();
    window.setInterval(tick, 1000);
  }
})();
