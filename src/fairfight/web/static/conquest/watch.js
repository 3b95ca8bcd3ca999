// Watch mode of an episode: the page holds the whole battle, each step (the sides, each round,
// the result) in its own list item; this script reveals them one at a time, at the pace the
// viewer sets with play, pause, next and skip. Every figure is already in the page: the script
// only shows, hides and reads aloud. Without it each step is its own address (?step=N); with a
// preference for reduced motion nothing plays by itself and nothing moves.
(function () {
  "use strict";
  var watch = document.getElementById("watch");
  if (!watch) { return; }
  var steps = Array.prototype.slice.call(watch.querySelectorAll(".watch-step"));
  var last = steps.length - 1;
  var shown = Number(watch.getAttribute("data-step"));
  var play = document.getElementById("watch-play");
  var next = document.getElementById("watch-next");
  var skip = document.getElementById("watch-skip");
  var again = document.getElementById("watch-again");
  var said = document.getElementById("watch-said");
  var scoreA = document.getElementById("score-attacker");
  var scoreD = document.getElementById("score-defender");
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var timer = null;

  function stillWanted() { return Boolean(still && still.matches); }

  function score(step) {
    for (var i = Math.min(step, last); i >= 0; i--) {
      var a = steps[i].getAttribute("data-score-attacker");
      if (a !== null) { return [a, steps[i].getAttribute("data-score-defender")]; }
    }
    return null;
  }

  function show(step, announce) {
    var before = shown;
    var onControl = document.activeElement === next || document.activeElement === skip;
    shown = step;
    steps.forEach(function (item, i) {
      item.hidden = i > step;
      item.classList.toggle("fresh", i === step && step > before && !stillWanted());
      item.classList.toggle("current", i === step);
    });
    var now = score(step);
    scoreA.textContent = now ? now[0] : "–";
    scoreD.textContent = now ? now[1] : "–";
    next.hidden = step >= last;
    skip.hidden = step >= last;
    again.hidden = step === 0;
    next.textContent = step >= last - 1 ? "Show the result" : "Next round";
    next.setAttribute("href", "?step=" + (step + 1) + "#step-" + (step + 1));
    if (announce) { said.textContent = steps[step].getAttribute("data-said"); }
    if (window.history && history.replaceState) { history.replaceState(null, "", "?step=" + step); }
    if (step >= last) {
      stop();
      var heading = document.getElementById("result-title");
      // the control in use has just been hidden: the focus goes to what it led to
      if (heading && onControl) { heading.focus(); }
    }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = shown >= last ? "Play again" : "Play";
  }

  function start() {
    if (shown >= last) { show(0, true); }
    play.textContent = "Pause";
    var pace = Number(watch.getAttribute("data-pace"));
    timer = setInterval(function () { show(shown + 1, true); }, pace);
  }

  play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
  next.addEventListener("click", function (event) {
    event.preventDefault(); stop(); show(Math.min(shown + 1, last), true);
  });
  skip.addEventListener("click", function (event) {
    event.preventDefault(); stop(); show(last, true);
  });
  again.addEventListener("click", function (event) {
    event.preventDefault(); stop(); show(0, true); next.focus();
  });
  // With reduced motion the battle moves only when asked: no play button, no animation.
  function offerPlay() {
    play.hidden = stillWanted();
    if (stillWanted()) { stop(); }
  }
  if (still && still.addEventListener) { still.addEventListener("change", offerPlay); }
  offerPlay();
  stop();
  watch.classList.add("scripted");
})();
