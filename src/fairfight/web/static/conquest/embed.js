// The embeddable season tells the page framing it how tall it is, on load and whenever its
// size changes, so the host can fit the frame: {type: "fairfight:height", height: px}.
(function () {
  "use strict";
  var sent = -1;
  function report() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === sent) { return; }
    sent = height;
    window.parent.postMessage({ type: "fairfight:height", height: height }, "*");
  }
  window.addEventListener("load", report);
  window.addEventListener("resize", report);
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(report).observe(document.documentElement);
  }
})();
