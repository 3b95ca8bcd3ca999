// A seat's page listens to its game's live stream and reloads when the game moves on (the
// other side committed, the turn ran). The stream says only that something changed; the
// page itself is rebuilt by the server from this side's view. Without JavaScript, reload.
"use strict";

(function () {
  var holder = document.querySelector("[data-stream]");
  if (!holder || !window.EventSource) { return; }
  // the progress the page was built at: a change before the stream connected still reloads it
  var seen = holder.getAttribute("data-progress");
  var source = new EventSource(holder.getAttribute("data-stream"));
  source.addEventListener("progress", function (event) {
    if (seen !== null && event.lastEventId !== seen) {
      source.close();
      window.location.reload();
      return;
    }
    seen = event.lastEventId;
  });
  // A form this page sends loads the new page itself: reloading on the news of that very
  // send would cut its answer off (the browser drops the navigation under way).
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) { source.close(); }
  });
})();
