/* The verify page's worker: replays a season archive with engine.js off the page's thread, and
 * checks its season log (seasonlog.js) against the receipts and heads dropped beside it. */
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

onmessage = async (event) => {
  const { archive, saved } = event.data;
  const files = saved.map(({ name, bytes }) => ({ name, bytes: new Uint8Array(bytes) }));
  let last = 0;
  const result = await self.FairfightConquest.verifyArchive(new Uint8Array(archive), {
    receipts: files.filter((file) => isReceipt(file.bytes)),
    heads: files.filter((file) => !isReceipt(file.bytes)),
    onProgress(done, total) {
      const now = Date.now();
      if (now - last > 30 || done === total) {
        last = now;
        postMessage({ type: "progress", done, total });
      }
    },
  });
  postMessage({ type: "result", result });
};
