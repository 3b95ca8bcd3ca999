// Live updates of a ballot table: a server-sent events stream from the database. When the table
// moves on, the page reloads (or, when a form is being filled in, says so and waits); when it
// becomes this seat's turn, a notification is shown if the person allowed them.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var version = Number(live.dataset.version);
  var typing = false;
  var form = document.getElementById("move");
  if (form) { form.addEventListener("input", function () { typing = true; }); }
  var button = document.getElementById("notify");
  if (button && window.Notification && Notification.permission !== "granted") {
    button.hidden = false;
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function (answer) {
        if (answer === "granted") { button.hidden = true; }
      });
    });
  }
  var stream = new EventSource(live.dataset.stream);
  stream.addEventListener("table", function (message) {
    var data = JSON.parse(message.data);
    if (data.your_turn && window.Notification && Notification.permission === "granted" &&
        document.hidden) {
      new Notification("Ballot: your turn", { body: "Table " + data.table + " waits for you." });
    }
    if (data.version === version) { return; }
    if (typing) {
      document.getElementById("update").hidden = false;
    } else {
      stream.close();
      window.location.reload();
    }
  });
  stream.addEventListener("error", function () {
    if (stream.readyState === EventSource.CLOSED) { stream.close(); }
  });
})();
