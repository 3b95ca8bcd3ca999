// The overlay's watch panel: when an episode airs (live.js passes the stream's battle event
// on as "season-battle"), fetch the episode's watch page, a kept page like the others, and
// show its steps one at a time at the overlay's pace: the sides and the battle chance, each
// round with its draw and the running score, then the result; the panel hides again after
// the result has been on screen for two steps. Episodes that air while one plays wait their
// turn; while one plays, the latest-result panel and the headline line stay hidden so they
// spoil nothing. Every figure is the server's; this script only shows and hides.
(function () {
  "use strict";
  var panel = document.getElementById("overlay-watch");
  if (!panel || !window.fetch || !window.DOMParser) { return; }
  var pace = Number(panel.getAttribute("data-pace"));
  var frame = document.getElementById("overlay");
  var waiting = [];
  var playing = false;

  function finish() {
    panel.hidden = true;
    frame.classList.remove("watching");
    panel.removeAttribute("data-step");
    playing = false;
    if (waiting.length) { play(waiting.shift()); }
  }

  function copy(fresh, id) {
    var found = fresh.getElementById(id);
    return found ? document.importNode(found, true) : null;
  }

  function show(html, number) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var steps = Array.prototype.slice.call(fresh.querySelectorAll(".watch-step"));
    if (!steps.length) { finish(); return; }
    panel.textContent = "";
    var title = copy(fresh, "episode-title");
    if (title) { title.id = "overlay-episode-title"; panel.appendChild(title); }
    var board = copy(fresh, "scoreboard");
    if (board) { panel.appendChild(board); }
    var list = document.createElement("ol");
    list.className = "watch-steps";
    steps.forEach(function (step) { list.appendChild(document.importNode(step, true)); });
    panel.appendChild(list);
    panel.setAttribute("data-battle", number);
    var items = list.children;
    var shown = -1;
    var timer = null;
    function next() {
      shown += 1;
      if (shown >= items.length + 2) { clearInterval(timer); finish(); return; }
      if (shown >= items.length) { return; } // the result stays up a little longer
      for (var i = 0; i < items.length; i++) { items[i].hidden = i !== shown; }
      var a = items[shown].getAttribute("data-score-attacker");
      var scoreA = panel.querySelector("#score-attacker");
      var scoreD = panel.querySelector("#score-defender");
      if (a !== null && scoreA && scoreD) {
        scoreA.textContent = a;
        scoreD.textContent = items[shown].getAttribute("data-score-defender");
      }
      panel.setAttribute("data-step", String(shown));
    }
    next();
    panel.hidden = false;
    timer = setInterval(next, pace);
  }

  function play(number) {
    playing = true;
    frame.classList.add("watching"); // the result and the headline would spoil the rounds
    fetch(panel.getAttribute("data-battles") + number + "/watch", { headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html) { show(html, number); } else { finish(); } })
      .catch(finish);
  }

  document.addEventListener("season-battle", function (event) {
    var number = event.detail && event.detail.number;
    if (!number) { return; }
    if (playing) { waiting.push(number); } else { play(number); }
  });
})();
