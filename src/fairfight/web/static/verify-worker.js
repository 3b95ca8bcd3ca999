/* The verify page's worker: replays a season archive with engine.js off the page's thread, and
 * checks its season log (seasonlog.js) against the receipts, heads and checkpoints dropped beside
 * it, holding each checkpoint to the witnesses and quorum given on the page. */
"use strict";
importScripts("/verify/seasonlog.js", "/verify/engine.js");
postMessage({ type: "ready" });

/* A saved file is a receipt when it is a JSON object with a `format` field, else a head. */
function isReceipt(bytes) {
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes));
    return value !== null && typeof value === "object" && "format" in value;
  } catch {
    return false;
  }
}

/* A saved file is a checkpoint when it is a signed note: text that is not JSON. */
function isCheckpoint(bytes) {
  const text = new TextDecoder().decode(bytes).trimStart();
  return text !== "" && !text.startsWith("{") && !text.startsWith("[") && text.includes("\n\n");
}

onmessage = async (event) => {
  // the fans' page sends no witnesses or quorum: its receipts are held to the log alone
  const { id, archive, saved, witnesses = [], quorum = 0 } = event.data;
  const files = saved.map(({ name, bytes }) => ({ name, bytes: new Uint8Array(bytes) }));
  const checkpoints = files.filter((file) => isCheckpoint(file.bytes));
  const json = files.filter((file) => !isCheckpoint(file.bytes));
  const held = checkpoints.length || witnesses.length || quorum;
  let last = 0;
  const result = await self.FairfightConquest.verifyArchive(new Uint8Array(archive), {
    receipts: json.filter((file) => isReceipt(file.bytes)),
    heads: json.filter((file) => !isReceipt(file.bytes)),
    quorum: held ? { checkpoints, witnesses, quorum } : null,
    onProgress(done, total) {
      const now = Date.now();
      if (now - last > 30 || done === total) {
        last = now;
        postMessage({ type: "progress", id, done, total });
      }
    },
  });
  postMessage({ type: "result", id, result });
};
