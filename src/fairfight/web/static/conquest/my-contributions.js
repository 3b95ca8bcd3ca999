/* A fan's receipts, checked in this browser and said in words.
 *
 * Each receipt is checked against the season log's newest signed head without trusting the
 * server's word: the season key is the header's `log_key`; the receipt's head and the newest
 * head must be signed by it; the receipt's entry must be its head's leaf (its own inclusion
 * proof), and the newest head must extend the receipt's head (a consistency proof) and hold the
 * same leaf (an inclusion proof), both proofs fetched from the API and checked here. Hashes,
 * proofs and Ed25519 are seasonlog.js's (the file the verify page's worker uses). After the
 * reveal the verify worker replays the archive with the receipts beside it.
 *
 * Receipts the faction card showed are kept in localStorage under `fairfight.receipts.ID`.
 *
 * When the service names witnesses (`/witnesses`), the page also fetches the newest checkpoint
 * a majority of them cosigned, checks each cosignature here (cosignature/v1 over the note's
 * text, under the keys the service lists), checks that the newest head extends that
 * checkpoint (a consistency proof) and that each receipt's leaf is in it (an inclusion proof),
 * and says plainly when the log shown here is not the one the witnesses saw.
 */
"use strict";
(function () {
  const box = document.getElementById("receipt-check");
  if (!box) return;
  const seasonId = box.dataset.season;
  const api = `/api/seasons/${seasonId}`;
  const storeKey = `fairfight.receipts.${seasonId}`;
  const verdicts = document.getElementById("receipt-verdicts");
  const input = document.getElementById("receipt-files");
  const drop = document.getElementById("receipt-drop");
  const HEAD_PREFIX = "fairfight season head v1\n";
  const FIELDS = {
    receipt: ["entry", "format", "head", "inclusion", "leaf_index"],
    entry: ["amount", "before_battle", "faction", "seq"],
    head: ["root", "season", "signature", "size", "time"],
  };
  let season = null; // {key, commitment, newest, names}, fetched once
  let checked = []; // [name, receipt] of each receipt found in the season log
  let shown = 0;

  class Refused extends Error {}

  /* Canonical JSON as the season log hashes it: sorted keys, no spaces. */
  function canonical(value) {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value !== null && typeof value === "object") {
      const keys = Object.keys(value).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
    }
    return JSON.stringify(value);
  }

  const utf8 = (text) => new TextEncoder().encode(text);

  function exact(place, value, fields) {
    const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
    const keys = isObject ? Object.keys(value).sort() : [];
    if (keys.join(",") !== fields.join(",")) {
      throw new Refused(`${place}: expected exactly the fields ${fields.join(", ")}`);
    }
  }

  async function fetchJson(address) {
    const response = await fetch(address, { headers: { accept: "application/json" } });
    if (!response.ok) throw new Refused(`could not fetch ${address}: ${response.status}`);
    return response.json();
  }

  /* ---- witnesses: the newest checkpoint a majority cosigned, checked here ---- */

  function fromBase64(text) {
    const raw = atob(text);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  /* The witness's public key from its vkey, when its key id is the one its name and key give. */
  async function witnessKey(vkey) {
    const first = vkey.indexOf("+");
    const second = vkey.indexOf("+", first + 1);
    if (first < 0 || second < 0) return null;
    const [name, id, encoded] = [vkey.slice(0, first), vkey.slice(first + 1, second),
      vkey.slice(second + 1)];
    const typed = fromBase64(encoded);
    if (typed.length !== 33 || typed[0] !== 4) return null;
    const material = new Uint8Array([...utf8(`${name}\n`), 4, ...typed.slice(1)]);
    const digest = await sha256(material);
    return log().hexOf(digest.slice(0, 4)) === id ? { name, id, key: typed.slice(1) } : null;
  }

  /* Names of the listed witnesses whose cosignature of the note verifies. */
  async function cosigners(note, vkeys) {
    const [text, lines] = [note.split("\n\n")[0] + "\n", note.split("\n\n")[1] || ""];
    const keys = (await Promise.all(vkeys.map(witnessKey))).filter(Boolean);
    const found = new Set();
    for (const line of lines.split("\n")) {
      const [dash, name, encoded] = line.split(" ");
      const key = keys.find((k) => k.name === name);
      if (dash !== "\u2014" || !key || !encoded) continue;
      const blob = fromBase64(encoded);
      if (blob.length !== 76 || log().hexOf(blob.slice(0, 4)) !== key.id) continue;
      let time = 0n;
      for (const byte of blob.slice(4, 12)) time = time * 256n + BigInt(byte);
      const message = utf8(`cosignature/v1\ntime ${time}\n${text}`);
      if (await log().verifyEd25519(key.key, message, blob.slice(12))) found.add(name);
    }
    return [...found].sort();
  }

  /* {size, root, by, of, quorum} of the newest checkpoint a majority cosigned (checked here),
   * null when the service names no witness; Refused when the log shown does not extend it. */
  async function witnessed() {
    const response = await fetch(`${api}/witnesses?quorum=majority`);
    if (response.status === 404) return null;
    if (!response.ok) throw new Refused(`could not fetch the witnesses: ${response.status}`);
    const listed = await response.json();
    const quorum = Math.floor(listed.witnesses.length / 2) + 1;
    const seen = { by: [], of: listed.witnesses.length, quorum, size: 0, root: null };
    if (!listed.checkpoint_url) return seen;
    const note = await (await fetch(listed.checkpoint_url)).text();
    const lines = note.split("\n");
    seen.size = Number(lines[1]);
    seen.root = fromBase64(lines[2]);
    seen.by = await cosigners(note, listed.vkeys);
    if (seen.by.length < quorum) return { ...seen, size: 0 };
    const newest = season.newest;
    const proof = await fetchJson(
      `${api}/proofs/consistency?first=${seen.size}&second=${newest.size}`);
    const extends_ = await log().verifyConsistency(seen.size, newest.size, seen.root,
      log().bytesFromHex(newest.root), log().hashesFromHex(proof.proof));
    if (!extends_) {
      throw new Refused(`The log this page shows is not the one the witnesses saw: its newest ` +
        `head (${newest.size} leaves) does not extend the checkpoint of ${seen.size} leaves ` +
        `cosigned by ${seen.by.length} of ${seen.of} witnesses (${seen.by.join(", ")})`);
    }
    return seen;
  }

  function sayWitnesses(text, ok) {
    const line = document.getElementById("witness-verdict");
    if (!line) return;
    line.hidden = false;
    line.className = ok ? "ok" : "error";
    line.textContent = text;
  }

  async function loadWitnesses() {
    try {
      season.witnesses = await witnessed();
    } catch (error) {
      season.witnesses = { refused: error.message };
      sayWitnesses(error.message, false);
      return;
    }
    const seen = season.witnesses;
    if (!seen) return;
    sayWitnesses(seen.size ? `The newest checkpoint cosigned by a majority of the witnesses ` +
      `(${seen.by.length} of ${seen.of}: ${seen.by.join(", ")}) covers ${seen.size} leaves; ` +
      "the log shown here extends it (checked in this browser)." :
      `No checkpoint is cosigned by a majority of the ${seen.of} witnesses yet.`, seen.size > 0);
  }

  /* What the witnesses saw of a receipt's leaf, in words. */
  async function witnessWords(receipt) {
    const seen = season.witnesses;
    if (!seen) return "";
    if (seen.refused) throw new Refused(seen.refused);
    if (!seen.size || receipt.leaf_index >= seen.size) {
      return "; not yet in a checkpoint cosigned by a majority of the witnesses";
    }
    const inclusion = await fetchJson(
      `${api}/proofs/inclusion?index=${receipt.leaf_index}&size=${seen.size}`);
    const held = await log().verifyInclusion(await leafOf(receipt.entry), receipt.leaf_index,
      seen.size, log().hashesFromHex(inclusion.proof), seen.root);
    if (!held) {
      throw new Refused(`your receipt for entry ${receipt.entry.seq} is not in the log the ` +
        "witnesses saw");
    }
    return `; in the log the witnesses saw (cosigned by ${seen.by.length} of ${seen.of}: ` +
      `${seen.by.join(", ")})`;
  }

  async function loadSeason() {
    if (season) return season;
    const [header, view, map] = await Promise.all(
      [fetchJson(`${api}/header`), fetchJson(api), fetchJson(`${api}/map`)]);
    const names = Object.fromEntries(map.regions.map((region) => [region.code, region.name]));
    season = {
      key: header.log_key,
      commitment: view.commitment,
      newest: view.facts.head,
      names,
    };
    if (season.newest) await loadWitnesses();
    return season;
  }

  function words(entry) {
    const name = season.names[entry.faction] || entry.faction;
    return `$${entry.amount} for ${name}, counted in battle ${entry.before_battle}`;
  }

  const log = () => self.FairfightSeasonLog;

  async function signed(head) {
    const message = { root: head.root, season: head.season, size: head.size, time: head.time };
    try {
      const signature = log().bytesFromHex(head.signature);
      return await log().verifyEd25519(
        log().bytesFromHex(season.key), utf8(HEAD_PREFIX + canonical(message)), signature);
    } catch (error) {
      if (error instanceof TypeError) return false; // not hex: no signature at all
      throw new Refused(`the signatures cannot be checked here (${error.message})`);
    }
  }

  async function leafOf(entry) {
    return log().leafHash(utf8(canonical({ entry, kind: "contribution" })));
  }

  async function included(receipt) {
    try {
      const proof = log().hashesFromHex(receipt.inclusion);
      return await log().verifyInclusion(await leafOf(receipt.entry), receipt.leaf_index,
        receipt.head.size, proof, log().bytesFromHex(receipt.head.root));
    } catch (error) {
      return false;
    }
  }

  /* What the season log holds at the receipt's entry, from the public receipt of that entry,
   * itself checked (signed, its proof leading to its head) before it is quoted. */
  async function differs(receipt) {
    const seq = receipt.entry.seq;
    const said = `your receipt for entry ${seq} says ${words(receipt.entry)}`;
    const response = await fetch(`${api}/receipts/${Number(seq)}`);
    if (response.status === 404) return `${said}, but the season log has no entry ${seq}`;
    if (!response.ok) throw new Refused(`could not fetch the log's entry ${seq}`);
    const logged = await response.json();
    if (!(await signed(logged.head)) || !(await included(logged))) {
      return `${said}, and the server's copy of entry ${seq} does not check either`;
    }
    if (canonical(logged.entry) === canonical(receipt.entry)) {
      return `${said}, but its proof does not lead to its head's root`;
    }
    return `${said}, but the season log's entry ${seq} is ${words(logged.entry)}`;
  }

  async function carried(receipt, newest) {
    const first = receipt.head.size;
    const second = newest.size;
    const [consistency, inclusion] = await Promise.all([
      fetchJson(`${api}/proofs/consistency?first=${first}&second=${second}`),
      fetchJson(`${api}/proofs/inclusion?index=${receipt.leaf_index}&size=${second}`),
    ]);
    const root = log().bytesFromHex(newest.root);
    const extends_ = await log().verifyConsistency(first, second,
      log().bytesFromHex(receipt.head.root), root, log().hashesFromHex(consistency.proof));
    const holds = await log().verifyInclusion(await leafOf(receipt.entry), receipt.leaf_index,
      second, log().hashesFromHex(inclusion.proof), root);
    return extends_ && holds;
  }

  async function check(receipt) {
    exact("this file is not a receipt", receipt, FIELDS.receipt);
    exact("this receipt's entry", receipt.entry, FIELDS.entry);
    exact("this receipt's head", receipt.head, FIELDS.head);
    await loadSeason();
    const seq = receipt.entry.seq;
    if (!season.key) throw new Refused("this season keeps no signed log");
    if (receipt.head.season !== season.commitment) {
      throw new Refused(`your receipt for entry ${seq} is from another season`);
    }
    if (!(await signed(receipt.head))) {
      throw new Refused(`your receipt for entry ${seq}: the signature does not match the ` +
        "season key");
    }
    if (!(await included(receipt))) throw new Refused(await differs(receipt));
    const newest = season.newest;
    if (!newest || !(await signed(newest))) {
      throw new Refused(`the newest head is not signed by the season key`);
    }
    if (!(await carried(receipt, newest))) {
      throw new Refused(`your receipt for entry ${seq}: the newest head does not hold it`);
    }
    const witnessed_ = await witnessWords(receipt);
    return `${words(receipt.entry)}: in the record, as leaf ${receipt.leaf_index} of the ` +
      `season log (checked in this browser against the newest head, ${newest.size} leaves, ` +
      `signed by the season key${witnessed_})`;
  }

  function say(ok, name, text) {
    const item = document.createElement("li");
    item.className = ok ? "ok" : "error";
    const mark = document.createElement("strong");
    mark.textContent = ok ? "\u2713" : "\u2717";
    const label = document.createElement("span");
    label.className = "receipt-name";
    label.textContent = name;
    item.append(mark, " ", label, `: ${text}`);
    verdicts.append(item);
  }

  async function checkOne(name, text) {
    let receipt;
    try {
      receipt = JSON.parse(text);
    } catch (error) {
      say(false, name, "this file is not a receipt: it is not JSON");
      return;
    }
    try {
      say(true, name, await check(receipt));
      checked.push([name, receipt]);
    } catch (error) {
      const message = error instanceof Refused ? error.message : `could not check: ${error}`;
      say(false, name, message);
    }
  }

  async function checkAll(items) {
    if (shown === 0) verdicts.replaceChildren();
    shown += items.length;
    for (const [name, text] of items) await checkOne(name, text);
    document.body.dataset.receipts = "checked";
  }

  function kept() {
    try {
      const value = JSON.parse(localStorage.getItem(storeKey) || "[]");
      return Array.isArray(value) ? value : [];
    } catch (error) {
      return [];
    }
  }

  function showKept() {
    const receipts = kept();
    const panel = document.getElementById("kept-receipts");
    panel.hidden = receipts.length === 0;
    document.getElementById("kept-text").textContent =
      `This browser kept ${receipts.length} receipt${receipts.length === 1 ? "" : "s"} ` +
      "from this season's faction cards; each is checked below.";
    return receipts;
  }

  async function readFiles(files) {
    const items = await Promise.all([...files].map(async (file) => [file.name, await file.text()]));
    await checkAll(items);
  }

  /* After the reveal: the verify worker replays the archive with the receipts found above. */
  function checkArchive(bytes) {
    const out = document.getElementById("archive-verdict");
    const bar = document.getElementById("archive-progress");
    if (!checked.length) {
      out.textContent = "Check a receipt above first: the archive is checked with them.";
      return;
    }
    const worker = new Worker("/static/verify-worker.js");
    const saved = checked.map(([name, receipt]) => ({
      name, bytes: utf8(JSON.stringify(receipt)).buffer }));
    out.textContent = "Replaying the season in this browser...";
    bar.hidden = false;
    worker.onmessage = (event) => {
      const message = event.data;
      if (message.type === "progress") {
        bar.max = message.total;
        bar.value = message.done;
      } else if (message.type === "result") {
        bar.hidden = true;
        worker.terminate();
        const result = message.result;
        const each = checked.map(([, receipt]) => words(receipt.entry)).join("; ");
        out.className = result.ok ? "ok" : "error";
        out.textContent = result.ok
          ? `\u2713 also in the final record: the archive replays (${result.battles} battles) ` +
            `and its season log holds ${each}`
          : `\u2717 the archive does not hold your receipts as they are: ${result.message}`;
        document.body.dataset.archive = result.ok ? "verified" : "failed";
      }
    };
    worker.postMessage({ archive: bytes, saved }, [bytes, ...saved.map((item) => item.bytes)]);
  }

  function wireArchive() {
    const file = document.getElementById("receipt-archive");
    const published = document.getElementById("archive-published");
    if (!file || !window.Worker) return;
    file.addEventListener("change", async () => {
      if (file.files.length) checkArchive(await file.files[0].arrayBuffer());
    });
    published.addEventListener("click", async () => {
      const response = await fetch(`/conquest/${seasonId}/record.zip`);
      if (response.ok) checkArchive(await response.arrayBuffer());
    });
  }

  function start() {
    document.getElementById("receipt-how").textContent =
      "Your browser checks each receipt as soon as you choose it; the button sends them to " +
      "this server to be checked there instead.";
    input.addEventListener("change", () => readFiles(input.files));
    drop.addEventListener("dragover", (event) => event.preventDefault());
    drop.addEventListener("drop", (event) => {
      event.preventDefault();
      readFiles(event.dataTransfer.files);
    });
    document.getElementById("forget-receipts").addEventListener("click", () => {
      localStorage.removeItem(storeKey);
      showKept();
      verdicts.replaceChildren();
      checked = [];
      shown = 0;
    });
    wireArchive();
    const receipts = showKept();
    const items = receipts.map((receipt) => [
      `kept receipt for entry ${receipt.entry && receipt.entry.seq}`, JSON.stringify(receipt)]);
    if (items.length) checkAll(items);
    else document.body.dataset.receipts = "none";
  }

  const script = document.createElement("script");
  script.src = "/verify/seasonlog.js";
  script.onload = start;
  document.head.append(script);
})();
