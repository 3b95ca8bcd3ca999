/* The verify page: hand a dropped archive, any receipts, heads and checkpoints dropped with it,
 * and the witnesses and quorum asked for, to the worker; show progress, then the verdict. */
"use strict";
(function () {
  const form = document.getElementById("verify-form");
  const input = document.getElementById("archive");
  const savedInput = document.getElementById("saved");
  const drop = document.getElementById("drop");
  const box = document.getElementById("progress-box");
  const bar = document.getElementById("progress");
  const count = document.getElementById("progress-text");
  const result = document.getElementById("result");
  const witnessInput = document.getElementById("witnesses");
  const quorumInput = document.getElementById("quorum");
  if (!form || !window.Worker) return;

  /* Start the worker at once, so engine.js is loaded while the network is still there. */
  const worker = new Worker("/static/verify-worker.js");
  document.getElementById("no-script-note").textContent =
    "The check runs in this browser as soon as you choose a file; the button sends it to the " +
    "server to be checked with the Python engine instead.";

  function line(className, mark, text) {
    const p = document.createElement("p");
    p.className = className;
    const strong = document.createElement("strong");
    strong.textContent = mark;
    p.append(strong, " ", text);
    return p;
  }

  function show(outcome) {
    result.replaceChildren();
    if (outcome.ok) {
      const unchecked = new Set(outcome.unchecked || []);
      const cannot = [...unchecked].some((note) => note.includes("cannot check here"));
      const verdict =
        `verified: ${outcome.battles} battles, the final map and the ledger match` +
        (cannot ? "; the signatures: cannot check here" : "");
      const head = line("ok verdict", "\u2713", verdict);
      head.setAttribute("role", "status");
      const list = document.createElement("ol");
      list.className = "checks";
      for (const note of outcome.notes) {
        const item = document.createElement("li");
        // A note that says what was not checked is no pass: it gets a dash, not a tick.
        item.textContent = `${unchecked.has(note) ? "\u2013" : "\u2713"} ${note}`;
        if (unchecked.has(note)) item.className = "unchecked";
        list.append(item);
      }
      result.append(head, list);
    } else {
      // A refusal (a checkpoint without its quorum, a bad witness key) is no difference found.
      const mark = outcome.refused ? "\u2717 refused:" : "\u2717 first difference:";
      const head = line("error verdict", mark, "");
      const where = document.createElement("span");
      where.className = "mono";
      where.textContent = outcome.message;
      head.append(where);
      head.setAttribute("role", "alert");
      result.append(head);
    }
    document.body.dataset.verdict = outcome.ok ? "verified" : "failed";
  }

  /* Each check is numbered; only the newest one's progress and verdict are shown, so a check
   * started before the fan changed a file or a field cannot overwrite a later one. */
  let latest = 0;
  let lastFiles = null;

  worker.onmessage = (event) => {
    const message = event.data;
    if (message.id !== undefined && message.id !== latest) return;
    if (message.type === "ready") {
      document.body.dataset.verifier = "ready";
    } else if (message.type === "progress") {
      bar.max = message.total;
      bar.value = message.done;
      count.textContent = `${message.done} / ${message.total}`;
    } else if (message.type === "result") {
      box.hidden = true;
      show(message.result);
    }
  };

  /* The archive is the .zip among the files; every other file is a saved receipt or head. */
  async function check(files) {
    const all = [...files];
    const id = ++latest;
    lastFiles = all;
    const file = all.find((item) => item.name.toLowerCase().endsWith(".zip")) || all[0];
    if (!file) return;
    const others = all.filter((item) => item !== file);
    if (savedInput) others.push(...[...savedInput.files].filter((item) => !all.includes(item)));
    delete document.body.dataset.verdict;
    const beside = others.length ? ` with ${others.length} saved files` : "";
    result.replaceChildren(line("muted", "", `Checking ${file.name}${beside}...`));
    bar.value = 0;
    count.textContent = "";
    box.hidden = false;
    const archive = await file.arrayBuffer();
    const saved = await Promise.all(
      others.map(async (item) => ({ name: item.name, bytes: await item.arrayBuffer() })),
    );
    const witnesses = witnessInput.value.split("\n").map((text) => text.trim()).filter(Boolean);
    const quorum = /^[0-9]{1,3}$/.test(quorumInput.value.trim()) ? Number(quorumInput.value) : 0;
    if (id !== latest) return; // a newer check started while the files were read
    worker.postMessage({ id, archive, saved, witnesses, quorum },
      [archive, ...saved.map((item) => item.bytes)]);
  }

  /* The season's own witnesses and a majority of them, read from this service, when the page
   * was opened for one season (`?season=ID`, or its published archive) and the fields are
   * empty: a fan may change them, and should, to the witnesses they trust. */
  function prefill(season) {
    fetch(`/api/seasons/${season}/witnesses`)
      .then((response) => (response.ok ? response.json() : null))
      .then((found) => {
        if (!found || witnessInput.value.trim() || !found.vkeys.length) return;
        witnessInput.value = found.vkeys.join("\n");
        quorumInput.value = String(Math.floor(found.vkeys.length / 2) + 1);
        document.getElementById("quorum-source").textContent =
          `Filled in with the ${found.vkeys.length} witnesses this service sends season ` +
          `${season}'s checkpoints to (${found.witnesses.join(", ")}), and a majority of them.`;
        document.body.dataset.witnesses = "filled";
      })
      .catch(() => {});
  }

  input.addEventListener("change", () => check(input.files));
  if (savedInput) {
    savedInput.addEventListener("change", () => {
      if (input.files.length) check(input.files);
    });
  }

  /* `/verify?archive=/path/season.zip`: fetch a season's published archive from this site.
   * The address is resolved as the browser would fetch it (`/\host/x` means `//host/x`) and
   * kept only when it names this very origin. */
  // Once the fan changes the keys, the note on where they came from no longer holds; a
  // changed key or quorum checks the files already chosen again.
  witnessInput.addEventListener("input", () => {
    document.getElementById("quorum-source").textContent = "";
  });
  for (const field of [witnessInput, quorumInput]) {
    field.addEventListener("change", () => {
      if (lastFiles) check(lastFiles);
    });
  }
  const query = new URLSearchParams(window.location.search);
  const published = query.get("archive");
  const season = query.get("season") || (/^\/conquest\/([0-9]{1,12})\//.exec(published || "") || [])[1];
  if (season && /^[0-9]{1,12}$/.test(season)) prefill(season);
  const sameOrigin = (address) => {
    try {
      return new URL(address, window.location.href).origin === window.location.origin;
    } catch (error) {
      return false;
    }
  };
  if (published && !sameOrigin(published)) {
    const refusal = "refused: the archive must come from this site";
    result.replaceChildren(line("error", "\u2717", refusal));
  } else if (published) {
    fetch(new URL(published, window.location.href))
      .then((response) => {
        if (!response.ok) throw new Error(`${published}: ${response.status}`);
        return response.blob();
      })
      .then((blob) => check([new File([blob], published.split("/").pop())]))
      .catch((error) => {
        result.replaceChildren(line("error", "\u2717", `could not fetch ${error.message}`));
      });
  }
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    check(event.dataTransfer.files);
  });
})();
