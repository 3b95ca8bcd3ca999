/* The verify page's worker: replays a season archive with engine.js off the page's thread. */
"use strict";
importScripts("/verify/engine.js");
postMessage({ type: "ready" });

onmessage = async (event) => {
  let last = 0;
  const result = await self.FairfightConquest.verifyArchive(new Uint8Array(event.data), {
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
