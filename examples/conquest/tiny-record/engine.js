/*
 * fairfight conquest: a second, independent season verifier in plain JavaScript.
 *
 * It replays a published season archive from the rules alone and compares every saved battle,
 * the ledger and the final map with its own replay. No dependencies, no build step: exact
 * integers are BigInt, fractions are BigInt pairs, SHA-256 comes from Web Crypto in a browser
 * and from node:crypto in Node.
 *
 *   node engine.js verify FOLDER_OR_ZIP [--receipt FILE]... [--head FILE]...
 *       [--checkpoint FILE]... [--witness VKEY]... [--quorum K]
 *       exit 0 when the season replays exactly and its season log holds every saved receipt
 *       and head, 1 naming the first difference (or the saved file), 2 on bad usage or a
 *       checkpoint without the quorum.
 *
 * In a page or a Web Worker, load seasonlog.js and this file and call
 *   FairfightConquest.verifyArchive(zipBytes, { receipts, heads, onProgress(done, total) {} })
 * (saved files as { name, bytes }), which resolves to
 * { ok, notes, unchecked, message, place, detail, battles }.
 */
"use strict";

(function (root) {
  // ------------------------------------------------------------------ the rules' constants
  // Each named and valued as in tables.py (tests/conquest/test_tables.py compares the two); the
  // fractions follow the Ratio class below.

  const ENGINE_VERSION = "fairfight-conquest-1";
  const CATEGORIES = ["P", "S", "M", "R", "U"];
  const RATING_WEIGHTS = { P: 30n, S: 25n, M: 20n, R: 15n, U: 10n };
  const RATING_MIN = 1n;
  const RATING_MAX = 10n;
  const CATEGORY_TYPES = { P: "Forge", S: "Supply", M: "Route", R: "Fortress", U: "Alliance" };
  const COUNTER_CIRCLE = CATEGORIES.map((c) => CATEGORY_TYPES[c]);
  const COUNTERS = Object.fromEntries(
    COUNTER_CIRCLE.map((kind, i) => [kind, COUNTER_CIRCLE[(i + 1) % COUNTER_CIRCLE.length]]),
  );
  const POWER_SCALE = 10n ** 6n;
  const STRENGTH_FACTORS = ["home", "sea", "counter", "morale"];
  const ROUND_BITS = 32n;
  const ROUND_SCALE = 1n << ROUND_BITS;
  const CLAMP_PER_MILLE = 189n;
  const ROUND_FLOOR = (CLAMP_PER_MILLE * ROUND_SCALE) / 1000n;
  const ROUND_CEILING = ROUND_SCALE - ROUND_FLOOR;
  const ROUNDS_TO_WIN = 3;
  const DRAWS_PER_BATTLE = 8n;
  const DRAW_ROLES = ["attacker", "defender", "border", ...CATEGORIES.map((c) => `round ${c}`)];
  const FIRST_ROUND_DRAW = DRAW_ROLES.indexOf(`round ${CATEGORIES[0]}`);
  const BASIS_POINTS = 10000n;
  const MORALE_WIN_BP = 200n;
  const MORALE_UPSET_BP = 600n;
  const MORALE_CAP_BP = 1200n;
  const INTEGRATION_START = 8n;
  const INTEGRATION_STEP = 3n;
  const INTEGRATION_DENOMINATOR = 32n;
  const POOL_STEP = 5n;
  const POOL_CAP = 50n;
  const LAND = "land";
  const SEA = "sea";
  const BORDER_KINDS = [LAND, SEA];
  const SHOWN_LENGTH = 40;
  const FILE_LIMIT = 64 * 1024 * 1024;

  const RECORD_FILES = {
    header: "header.json",
    commitment: "commitment.txt",
    seed: "seed.txt",
    beacon: "beacon.json",
    map: "map.json",
    ledger: "ledger.jsonl",
    history: "history.jsonl",
    final_map: "final-map.json",
  };
  const ENGINE_FILES = [
    "beacons.py",
    "cosignature.py",
    "draws.py",
    "ed25519.py",
    "engine.js",
    "engine.py",
    "errors.py",
    "exact.py",
    "log_check.py",
    "merkle.py",
    "quorum_check.py",
    "records.py",
    "season_luck.py",
    "seasonlog.js",
    "signed_note.py",
    "tables.py",
    "verifier.py",
  ];
  /* The verifier files of archives written before witness quorums; still accepted. */
  const BEFORE_WITNESS_ENGINE_FILES = ENGINE_FILES.filter(
    (name) => !["cosignature.py", "quorum_check.py", "signed_note.py"].includes(name));
  /* The verifier files of archives written before luck.json; still accepted (no luck.json). */
  const BEFORE_LUCK_ENGINE_FILES = BEFORE_WITNESS_ENGINE_FILES.filter(
    (name) => name !== "season_luck.py");
  /* The verifier files of archives written before the season log; still accepted. */
  const PREVIOUS_ENGINE_FILES = [
    "beacons.py",
    "draws.py",
    "engine.js",
    "engine.py",
    "errors.py",
    "exact.py",
    "tables.py",
    "verifier.py",
  ];
  /* The verifier files of archives written before the verifier left engine.py; still accepted. */
  const LEGACY_ENGINE_FILES = ["draws.py", "engine.js", "engine.py"];
  /* Record files an archive may add: the season log, the refunds owed (public part) and the
   * season's luck (exactly when the header names LUCK_ENGINE_FILE). */
  const LOG_RECORD_FILES = { log: "log.json", refunds: "refunds.json", luck: "luck.json" };
  const LUCK_ENGINE_FILE = "season_luck.py";
  const LUCK_FORMAT = "fairfight-conquest-luck-1";
  /* The season log's formats, as log_check.py names them. */
  const HEAD_SIGNING_PREFIX = "fairfight season head v1\n";
  const RECEIPT_FORMAT = "fairfight-conquest-receipt-1";
  const GUIDE = "VERIFY.md";
  const MANIFEST = "manifest.sha256";
  const ARCHIVE_NAMES = [
    ...Object.values(RECORD_FILES),
    ...Object.values(LOG_RECORD_FILES),
    ...ENGINE_FILES,
    GUIDE,
    MANIFEST,
  ];

  const HEADER_KEYS = [
    "beacon",
    "engine_files",
    "engine_version",
    "map_name",
    "map_sha256",
    "max_battles",
    "ruleset",
  ];
  const PUBLISHED = "published";
  const LOG_KEY = "log_key";
  /* The optional header field holding the seed timelocked to a drand round (docs/season-log.md). */
  const TIMELOCK = "timelock";
  const TIMELOCK_KEYS = ["chain_hash", "ciphertext", "network", "round"];
  const PUBLISHED_FORM = "YYYY-MM-DDTHH:MM:SSZ";
  const PUBLISHED_PATTERN = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z$/;
  /* drand quicknet: round r comes out at genesis + (r - 1) * period_seconds (unix seconds). */
  const QUICKNET = {
    name: "quicknet",
    chain_hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    genesis: 1692803367n,
    period_seconds: 3n,
  };
  const BEACON_SPEC_KEYS = ["chain_hash", "name", "period_seconds", "round"];
  const BEACON_KEYS = ["randomness", "round", "signature"];
  const LEDGER_KEYS = ["amount", "before_battle", "faction", "seq"];
  const MAP_KEYS = {
    map: ["borders", "name", "regions"],
    region: [
      "code",
      "name",
      "population",
      "population_basis",
      "population_year",
      "ratings",
      "special",
    ],
    ratings: CATEGORIES,
    special: ["category", "citation", "fact", "name", "source_status"],
    border: ["a", "b", "distance_km", "kind", "remote"],
  };

  // ------------------------------------------------------------------ failures

  class Mismatch extends Error {
    constructor(place, detail) {
      super(`${place}: ${detail}`);
      this.place = place;
      this.detail = detail;
    }
  }

  /* A checkpoint without its quorum, or a bad --witness or --quorum (exit 2, like bad input). */
  class Refusal extends Error {
    constructor(place, detail) {
      super(`${place}: ${detail}`);
      this.place = place;
      this.detail = detail;
    }
  }

  const NOTHING = Symbol("nothing");

  // ------------------------------------------------------------------ JSON, exactly

  /* A JSON reader that keeps every integer exact (as BigInt), refuses numbers with a fraction
   * or an exponent, refuses an object that names a key twice and, once the text is read, a
   * key or string holding a lone surrogate (half of a UTF-16 pair, escaped alone: not Unicode
   * text), naming the first, as records.lone_surrogate does. */
  function readJson(text) {
    let at = 0;
    let surrogate = null;
    const fail = (why) => {
      throw new SyntaxError(why);
    };
    const space = () => {
      while (at < text.length) {
        const c = text.charCodeAt(at);
        if (c === 32 || c === 9 || c === 10 || c === 13) at += 1;
        else break;
      }
    };
    const value = (depth) => {
      if (depth > 10000) fail("nested too deeply");
      space();
      const c = text[at];
      if (c === "{") return object(depth);
      if (c === "[") return array(depth);
      if (c === '"') return string();
      if (c === "-" || (c >= "0" && c <= "9")) return number();
      for (const [word, meaning] of [
        ["true", true],
        ["false", false],
        ["null", null],
      ]) {
        if (text.startsWith(word, at)) {
          at += word.length;
          return meaning;
        }
      }
      for (const word of ["NaN", "Infinity", "-Infinity"]) {
        if (text.startsWith(word, at)) throw new WholeNumbers(word);
      }
      return fail(`unexpected character at ${at + 1}`);
    };
    const object = (depth) => {
      at += 1;
      const result = Object.create(null);
      space();
      if (text[at] === "}") {
        at += 1;
        return result;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail(`a key was expected at ${at + 1}`);
        const key = string();
        if (Object.prototype.hasOwnProperty.call(result, key)) {
          throw new TwiceNamed(key);
        }
        space();
        if (text[at] !== ":") fail(`':' was expected at ${at + 1}`);
        at += 1;
        result[key] = value(depth + 1);
        space();
        if (text[at] === ",") {
          at += 1;
          continue;
        }
        if (text[at] === "}") {
          at += 1;
          return result;
        }
        fail(`',' or '}' was expected at ${at + 1}`);
      }
    };
    const array = (depth) => {
      at += 1;
      const result = [];
      space();
      if (text[at] === "]") {
        at += 1;
        return result;
      }
      for (;;) {
        result.push(value(depth + 1));
        space();
        if (text[at] === ",") {
          at += 1;
          continue;
        }
        if (text[at] === "]") {
          at += 1;
          return result;
        }
        fail(`',' or ']' was expected at ${at + 1}`);
      }
    };
    const string = () => {
      let end = at + 1;
      let plain = true;
      for (;;) {
        if (end >= text.length) fail("a string is not closed");
        const c = text.charCodeAt(end);
        if (c === 34) break;
        if (c === 92) {
          plain = false;
          end += 2;
          continue;
        }
        if (c < 32) fail(`a control character inside a string at ${end + 1}`);
        end += 1;
      }
      const raw = text.slice(at, end + 1);
      at = end + 1;
      if (plain) return raw.slice(1, -1);
      const decoded = JSON.parse(raw);
      const lone = surrogate === null ? /[\uD800-\uDFFF]/u.exec(decoded) : null;
      if (lone) surrogate = `\\u${lone[0].charCodeAt(0).toString(16).padStart(4, "0")}`;
      return decoded;
    };
    const number = () => {
      const lexeme = text.slice(at, at + 5000);
      const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(lexeme);
      if (!match) fail(`a bad number at ${at + 1}`);
      at += match[0].length;
      if (match[2] || match[3]) throw new WholeNumbers(match[0]);
      return BigInt(match[0]);
    };
    const result = value(0);
    space();
    if (at !== text.length) fail(`extra data at ${at + 1}`);
    if (surrogate !== null) throw new LoneSurrogate(surrogate);
    return result;
  }

  class LoneSurrogate extends Error {
    constructor(escape) {
      super(`holds a lone surrogate (${escape}), which is not Unicode text`);
    }
  }

  const BYTE_ORDER_MARK_RULE =
    "starts with a byte-order mark (U+FEFF); save it as UTF-8 without one";

  /* Every verifier refuses a file that starts with UTF-8's byte-order mark (records.py). */
  function refuseByteOrderMark(name, bytes) {
    if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      throw new Mismatch(name, BYTE_ORDER_MARK_RULE);
    }
  }

  class WholeNumbers extends Error {
    constructor(lexeme) {
      super(`numbers must be whole, found ${lexeme.slice(0, SHOWN_LENGTH)}`);
    }
  }

  class TwiceNamed extends Error {
    constructor(key) {
      super(`the key ${shown(key)} appears twice`);
    }
  }

  /* Compact JSON with sorted keys; BigInt written as its decimal digits. */
  function compact(value) {
    if (value === null) return "null";
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "string") return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(compact).join(",")}]`;
    const keys = Object.keys(value).sort(byCodePoint);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${compact(value[k])}`).join(",")}}`;
  }

  const SURROGATE = /[\ud800-\udfff]/;

  /* Order text by code point, as Python sorts it (UTF-16 order differs only past U+FFFF). */
  function byCodePoint(a, b) {
    if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
    const x = Array.from(a);
    const y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
      const d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d !== 0) return d;
    }
    return x.length - y.length;
  }

  /* A value as a message shows it: compact JSON cut to 40 characters, or "nothing". */
  function shown(value) {
    if (value === NOTHING) return "nothing";
    const letters = Array.from(compact(value));
    if (letters.length <= SHOWN_LENGTH) return letters.join("");
    return `${letters.slice(0, SHOWN_LENGTH - 3).join("")}...`;
  }

  function differs(place, path, expected, found) {
    return new Mismatch(place, `field ${path}: expected ${shown(expected)}, found ${shown(found)}`);
  }

  function kindOf(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "list";
    return typeof value;
  }

  /* The first place two JSON values differ: keys in sorted order, lists item by item. */
  function firstDifference(saved, replayed, path) {
    const savedKind = kindOf(saved);
    const replayedKind = kindOf(replayed);
    if (savedKind === "object" && replayedKind === "object") {
      const keys = [...new Set([...Object.keys(saved), ...Object.keys(replayed)])];
      keys.sort(byCodePoint);
      for (const key of keys) {
        const where = path ? `${path}.${key}` : key;
        const inSaved = Object.prototype.hasOwnProperty.call(saved, key);
        const inReplayed = Object.prototype.hasOwnProperty.call(replayed, key);
        if (!inSaved || !inReplayed) {
          return [where, inSaved ? saved[key] : NOTHING, inReplayed ? replayed[key] : NOTHING];
        }
        const found = firstDifference(saved[key], replayed[key], where);
        if (found) return found;
      }
      return null;
    }
    if (savedKind === "list" && replayedKind === "list") {
      const common = Math.min(saved.length, replayed.length);
      for (let i = 0; i < common; i += 1) {
        const found = firstDifference(saved[i], replayed[i], `${path}[${i}]`);
        if (found) return found;
      }
      if (saved.length !== replayed.length) {
        return [`${path} length`, BigInt(saved.length), BigInt(replayed.length)];
      }
      return null;
    }
    if (savedKind !== replayedKind || saved !== replayed) return [path || "value", saved, replayed];
    return null;
  }

  // ------------------------------------------------------------------ hashing

  const inNode = typeof process === "object" && !!(process.versions && process.versions.node);
  const utf8 = new TextEncoder();

  function hexOf(bytes) {
    let text = "";
    for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
    return text;
  }

  async function sha256(bytes) {
    if (inNode) {
      return new Uint8Array(require("node:crypto").createHash("sha256").update(bytes).digest());
    }
    return new Uint8Array(await root.crypto.subtle.digest("SHA-256", bytes));
  }

  async function hmacHex(keyText, messageText) {
    if (inNode) {
      return require("node:crypto").createHmac("sha256", keyText).update(messageText).digest("hex");
    }
    const key = await root.crypto.subtle.importKey(
      "raw",
      utf8.encode(keyText),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const signed = await root.crypto.subtle.sign("HMAC", key, utf8.encode(messageText));
    return hexOf(new Uint8Array(signed));
  }

  /* Draw k: the first 8 bytes, big-endian, of SHA-256 of "KEY:k". */
  async function draw(key, k) {
    const digest = await sha256(utf8.encode(`${key}:${k}`));
    let x = 0n;
    for (let i = 0; i < 8; i += 1) x = (x << 8n) | BigInt(digest[i]);
    return x;
  }

  /* A uniform index below `count` from a 64-bit draw (multiply, then keep the high bits). */
  function pick(count, x) {
    return Number((x * BigInt(count)) >> 64n);
  }

  // ------------------------------------------------------------------ exact fractions

  function gcd(a, b) {
    let x = a < 0n ? -a : a;
    let y = b < 0n ? -b : b;
    while (y) [x, y] = [y, x % y];
    return x;
  }

  class Ratio {
    constructor(top, bottom = 1n) {
      const common = gcd(top, bottom) || 1n;
      const sign = bottom < 0n ? -1n : 1n;
      this.top = (sign * top) / common;
      this.bottom = (sign * bottom) / common;
    }
    times(other) {
      return new Ratio(this.top * other.top, this.bottom * other.bottom);
    }
    text() {
      return `${this.top}/${this.bottom}`;
    }
    below(other) {
      return this.top * other.bottom < other.top * this.bottom;
    }
  }

  const ONE = new Ratio(1n);
  const POWER_EXPONENT = new Ratio(7n, 20n);
  const SPECIAL_BONUS = new Ratio(110n, 100n);
  const HOME_BONUS = new Ratio(112n, 100n);
  const SEA_FACTOR = new Ratio(80n, 100n);
  const COUNTER_BONUS = new Ratio(108n, 100n);
  const UPSET_BELOW = new Ratio(35n, 100n);
  const MORALE_DECAY = new Ratio(82n, 100n);
  const FAN_BOOST_AT_CAP = new Ratio(10n, 100n);

  // ------------------------------------------------------------------ strength

  /* floor(value ** (1/degree)), by Newton's method on integers. */
  function integerRoot(value, degree) {
    if (value < 2n) return value;
    const bits = BigInt(value.toString(2).length);
    let guess = 1n << ((bits + degree - 1n) / degree);
    for (;;) {
      const next = ((degree - 1n) * guess + value / guess ** (degree - 1n)) / degree;
      if (next >= guess) return guess;
      guess = next;
    }
  }

  const powerMemo = new Map();
  /* Population power: N to the 0.35 (7/20), in millionths, rounded down. */
  function populationPower(people) {
    let power = powerMemo.get(people);
    if (power === undefined) {
      power = integerRoot(
        people ** POWER_EXPONENT.top * POWER_SCALE ** POWER_EXPONENT.bottom,
        POWER_EXPONENT.bottom,
      );
      powerMemo.set(people, power);
    }
    return power;
  }

  function weightedRating(ratings) {
    let total = 0n;
    for (const c of CATEGORIES) total += RATING_WEIGHTS[c] * ratings[c];
    return total;
  }

  // ------------------------------------------------------------------ the map

  function mapProblem(field, rule) {
    return new Mismatch("map", `${field}: ${rule}`);
  }

  function countAtLeast(value, field, low, high) {
    if (typeof value !== "bigint" || value < low) {
      throw mapProblem(field, `must be an integer of at least ${low}`);
    }
    if (high !== undefined && value > high) {
      throw mapProblem(field, `must be an integer from ${low} to ${high}`);
    }
    return value;
  }

  function orEmpty(value) {
    return value === null || value === undefined || value === false ? null : value;
  }

  /* What the engine plays on: regions, borders in (a, b) order, and each region's neighbours. */
  function buildWorld(map) {
    const regions = new Map();
    (orEmpty(map.regions) || []).forEach((region, i) => {
      const code = region.code;
      if (typeof code !== "string" || !/^[\x00-\x7f]*$/.test(code) || !code.trim()) {
        throw mapProblem(`regions[${i}].code`, "must be non-empty ASCII text");
      }
      if (regions.has(code)) throw mapProblem(`regions[${i}].code`, `${code} is listed twice`);
      const ratings = orEmpty(region.ratings) || {};
      const special = (orEmpty(region.special) || {}).category;
      if (!CATEGORIES.includes(special)) {
        throw mapProblem(`regions[${i}].special.category`, "must be one of P, S, M, R, U");
      }
      const population = countAtLeast(region.population, `regions[${i}].population`, 1n);
      const scores = {};
      for (const c of CATEGORIES) {
        scores[c] = countAtLeast(ratings[c], `regions[${i}].ratings.${c}`, RATING_MIN, RATING_MAX);
      }
      regions.set(code, { population, ratings: scores, special });
    });
    if (regions.size < 2) throw mapProblem("regions", "a season needs at least two regions");
    const borders = [];
    const seen = new Set();
    const near = new Map([...regions.keys()].map((code) => [code, []]));
    (orEmpty(map.borders) || []).forEach((border, i) => {
      const { a, b, kind } = border;
      if (!regions.has(a) || !regions.has(b)) {
        throw mapProblem(`borders[${i}]`, `joins an unknown region (${a}-${b})`);
      }
      if (!(a < b)) {
        throw mapProblem(`borders[${i}]`, `ends must be in byte order, a < b (${a}-${b})`);
      }
      if (seen.has(`${a} ${b}`)) {
        throw mapProblem(`borders[${i}]`, `the pair ${a}-${b} is listed twice`);
      }
      if (!BORDER_KINDS.includes(kind)) {
        throw mapProblem(`borders[${i}].kind`, "must be land or sea");
      }
      const remote = truthy(border.remote);
      if (remote && kind !== SEA) {
        throw mapProblem(`borders[${i}].remote`, "only a sea link can be remote");
      }
      seen.add(`${a} ${b}`);
      borders.push({ a, b, kind, remote });
      near.get(a).push(b);
      near.get(b).push(a);
    });
    borders.sort((x, y) => (x.a === y.a ? (x.b < y.b ? -1 : 1) : x.a < y.a ? -1 : 1));
    for (const [code, list] of near) {
      if (!list.length) throw mapProblem(`regions.${code}`, "has no border");
    }
    const codes = [...regions.keys()].sort();
    const reached = new Set([codes[0]]);
    const queue = [codes[0]];
    while (queue.length) {
      for (const other of near.get(queue.pop())) {
        if (!reached.has(other)) {
          reached.add(other);
          queue.push(other);
        }
      }
    }
    if (reached.size !== regions.size) {
      const lost = codes.find((code) => !reached.has(code));
      throw mapProblem("borders", `the map is not connected (${lost} cannot be reached)`);
    }
    return { regions, borders, near, codes };
  }

  function truthy(value) {
    if (value === undefined || value === null || value === false) return false;
    if (typeof value === "bigint") return value !== 0n;
    if (typeof value === "string" || Array.isArray(value)) return value.length > 0;
    if (typeof value === "object") return Object.keys(value).length > 0;
    return Boolean(value);
  }

  /* SHA-256 of the map in canonical order: regions by code, borders by (a, b). */
  async function mapDigest(map) {
    const ordered = Object.assign(Object.create(null), map);
    const text = (v) => (typeof v === "string" ? v : compact(v === undefined ? null : v));
    const orderBy = (keyOf) => (x, y) => byCodePoint(keyOf(x), keyOf(y));
    if (Array.isArray(map.regions)) {
      ordered.regions = [...map.regions].sort(orderBy((r) => text(r.code)));
    }
    if (Array.isArray(map.borders)) {
      ordered.borders = [...map.borders].sort((x, y) => {
        const first = byCodePoint(text(x.a), text(y.a));
        return first || byCodePoint(text(x.b), text(y.b));
      });
    }
    return hexOf(await sha256(utf8.encode(compact(ordered))));
  }

  // ------------------------------------------------------------------ the board

  function freshBoard(world) {
    const factions = {};
    const regions = {};
    for (const code of world.regions.keys()) {
      factions[code] = { morale: 0n, pool: 0n, pool_state: "open", standing: true };
      regions[code] = { captured_at: null, owner: code };
    }
    return { ended: false, factions, next_battle: 1n, regions };
  }

  function holder(board, code) {
    return board.regions[code].owner;
  }

  /* People a faction brings to battle n: its home in full, captured regions ramping up. */
  function peopleOf(world, board, faction, n) {
    let total = 0n;
    for (const code of world.codes) {
      const region = board.regions[code];
      if (region.owner !== faction) continue;
      const people = world.regions.get(code).population;
      if (code === faction || region.captured_at === null) {
        total += people;
      } else {
        const step = INTEGRATION_START + INTEGRATION_STEP * (n - region.captured_at - 1n);
        const share = step >= INTEGRATION_DENOMINATOR ? INTEGRATION_DENOMINATOR : step;
        total += (people * share) / INTEGRATION_DENOMINATOR;
      }
    }
    return total;
  }

  function attackersOf(world, board) {
    const found = new Set();
    for (const border of world.borders) {
      const x = holder(board, border.a);
      const y = holder(board, border.b);
      if (x !== y) {
        found.add(x);
        found.add(y);
      }
    }
    return [...found].filter((code) => board.factions[code].standing).sort();
  }

  function defendersOf(world, board, attacker) {
    const found = new Set();
    for (const border of world.borders) {
      const x = holder(board, border.a);
      const y = holder(board, border.b);
      if (x === attacker && y !== attacker) found.add(y);
      if (y === attacker && x !== attacker) found.add(x);
    }
    return [...found].sort();
  }

  function bordersBetween(world, board, attacker, defender) {
    return world.borders.filter((border) => {
      const x = holder(board, border.a);
      const y = holder(board, border.b);
      return (x === attacker && y === defender) || (x === defender && y === attacker);
    });
  }

  function rebelsWaiting(board) {
    return Object.keys(board.factions)
      .filter((code) => {
        const f = board.factions[code];
        return !f.standing && f.pool_state === "open" && f.pool === POOL_CAP;
      })
      .sort();
  }

  function seasonOver(world, board, cap) {
    if (cap !== null && board.next_battle - 1n >= cap) return true;
    return !rebelsWaiting(board).length && !attackersOf(world, board).length;
  }

  // ------------------------------------------------------------------ pools

  /* A value as a refusal message quotes it: text in quotes, numbers plain. */
  function quoted(value) {
    if (typeof value === "string") {
      return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value}'`;
    }
    if (value === null || value === undefined) return "None";
    if (typeof value === "boolean") return value ? "True" : "False";
    return String(value);
  }

  /* One contribution, applied at the start of its battle, or refused by the pool rules. */
  function contribute(board, entry) {
    const refuse = (field, rule) => new Mismatch(`ledger seq ${entry.seq}.${field}`, rule);
    const { faction, amount } = entry;
    if (board.ended) throw refuse("season", "the season is over; no contribution is accepted");
    if (typeof faction !== "string" || !has(board.factions, faction)) {
      throw refuse("faction", `no faction has the code ${quoted(faction)}`);
    }
    const stepped = typeof amount === "bigint" && amount % POOL_STEP === 0n;
    if (!stepped || amount < POOL_STEP || amount > POOL_CAP) {
      throw refuse("amount", `must be $5 to $50 in $5 steps, got ${quoted(amount)}`);
    }
    if (entry.before_battle !== board.next_battle) {
      const got = quoted(entry.before_battle);
      throw refuse("before_battle", `must be the next battle, ${board.next_battle}, got ${got}`);
    }
    const pool = board.factions[faction];
    if (pool.pool_state === "spent") {
      throw refuse("faction", `${faction} has already spent its pool this season`);
    }
    if (pool.pool + amount > POOL_CAP) {
      const rule = `${faction}'s pool holds $${pool.pool}; $${amount} more would pass the $50 cap`;
      throw refuse("amount", rule);
    }
    pool.pool += amount;
  }

  // ------------------------------------------------------------------ one battle

  function sideOf(world, faction, people, moraleBp, factors) {
    const home = world.regions.get(faction);
    const power = populationPower(people);
    const rating = weightedRating(home.ratings);
    return {
      base: power * rating,
      counter: factors.counter,
      faction,
      fan: factors.fan,
      home: factors.home,
      morale: new Ratio(BASIS_POINTS + moraleBp, BASIS_POINTS),
      morale_bp: moraleBp,
      people,
      pool: factors.pool,
      power,
      sea: factors.sea,
      special: home.special,
      special_active: factors.specialActive,
      type: CATEGORY_TYPES[home.special],
      weighted_rating: rating,
    };
  }

  function counterFactors(typeA, typeD) {
    if (COUNTERS[typeA] === typeD) return [COUNTER_BONUS, ONE];
    if (COUNTERS[typeD] === typeA) return [ONE, COUNTER_BONUS];
    return [ONE, ONE];
  }

  function fanFactor(pool) {
    if (pool <= 0n || pool >= POOL_CAP) return ONE;
    const span = FAN_BOOST_AT_CAP.bottom * POOL_CAP; // 1 + 0.10 a / 50 = (500 + a) / 500
    return new Ratio(span + FAN_BOOST_AT_CAP.top * pool, span);
  }

  /* A side's strength in one round, as an exact fraction. */
  function strength(side, category, withFan) {
    const factors = STRENGTH_FACTORS.map((name) => side[name]);
    if (side.special_active && side.special === category) factors.push(SPECIAL_BONUS);
    if (withFan) factors.push(side.fan);
    let top = side.base;
    let bottom = 1n;
    for (const factor of factors) {
      top *= factor.top;
      bottom *= factor.bottom;
    }
    return { top, bottom }; // left unreduced: only the ratio of the two sides matters
  }

  /* The attacker's round chance out of 2^32, clamped to 18.9% .. 81.1%. */
  function roundChance(mine, theirs) {
    const a = mine.top * theirs.bottom;
    const d = theirs.top * mine.bottom;
    const q = (a * ROUND_SCALE) / (a + d);
    return q < ROUND_FLOOR ? ROUND_FLOOR : q > ROUND_CEILING ? ROUND_CEILING : q;
  }

  /* Chance of at least three round wins of five (each p = q / 2^32), exactly. */
  function winChance(chances) {
    let ways = [1n];
    for (const q of chances) {
      const next = new Array(ways.length + 1).fill(0n);
      ways.forEach((w, k) => {
        next[k] += w * (ROUND_SCALE - q);
        next[k + 1] += w * q;
      });
      ways = next;
    }
    let top = 0n;
    for (let k = ROUNDS_TO_WIN; k < ways.length; k += 1) top += ways[k];
    return new Ratio(top, ROUND_SCALE ** BigInt(chances.length));
  }

  function sideData(side) {
    const out = {};
    for (const [key, value] of Object.entries(side)) {
      out[key] = value instanceof Ratio ? value.text() : value;
    }
    return out;
  }

  function fight(entry, attacker, defender, draws, securedBy) {
    const before = [];
    const after = [];
    for (const c of CATEGORIES) {
      before.push(roundChance(strength(attacker, c, false), strength(defender, c, false)));
      after.push(roundChance(strength(attacker, c, true), strength(defender, c, true)));
    }
    const first = entry.draws[0].index;
    let wins = 0;
    entry.rounds = CATEGORIES.map((category, i) => {
      const won = draws[FIRST_ROUND_DRAW + i] >> ROUND_BITS < after[i];
      if (won) wins += 1;
      return {
        after: new Ratio(after[i], ROUND_SCALE).text(),
        before: new Ratio(before[i], ROUND_SCALE).text(),
        category,
        draw_index: first + BigInt(FIRST_ROUND_DRAW + i),
        winner: won ? "attacker" : "defender",
      };
    });
    const natural = wins >= ROUNDS_TO_WIN ? "attacker" : "defender";
    let chanceAfter = winChance(after);
    if (securedBy === "attacker") chanceAfter = ONE;
    if (securedBy === "defender") chanceAfter = new Ratio(0n, 1n);
    const winner = securedBy || natural;
    const winnerChance =
      winner === "attacker"
        ? chanceAfter
        : new Ratio(chanceAfter.bottom - chanceAfter.top, chanceAfter.bottom);
    entry.attacker_rounds = BigInt(wins);
    entry.battle_chance = { after: chanceAfter.text(), before: winChance(before).text() };
    entry.natural_winner = entry[natural];
    entry.winner = entry[winner];
    entry.loser = entry[winner === "attacker" ? "defender" : "attacker"];
    entry.upset = winnerChance.below(UPSET_BELOW);
  }

  function newEntry(n, kind, draws, attacker, defender) {
    const first = DRAWS_PER_BATTLE * (n - 1n);
    return {
      attacker: attacker.faction,
      defender: defender.faction,
      draws: draws.map((value, i) => ({ index: first + BigInt(i), value })),
      kind,
      number: n,
      sides: { attacker: sideData(attacker), defender: sideData(defender) },
    };
  }

  function regularBattle(world, board, n, draws) {
    const attackers = attackersOf(world, board);
    const attackerCode = attackers[pick(attackers.length, draws[0])];
    const defenders = defendersOf(world, board, attackerCode);
    const defenderCode = defenders[pick(defenders.length, draws[1])];
    const borders = bordersBetween(world, board, attackerCode, defenderCode);
    const border = borders[pick(borders.length, draws[2])];
    const [counterA, counterD] = counterFactors(
      CATEGORY_TYPES[world.regions.get(attackerCode).special],
      CATEGORY_TYPES[world.regions.get(defenderCode).special],
    );
    const poolOf = (code) => {
      const faction = board.factions[code];
      return faction.pool_state === "open" ? faction.pool : 0n;
    };
    const make = (code, roles) =>
      sideOf(world, code, peopleOf(world, board, code, n), board.factions[code].morale, {
        ...roles,
        fan: fanFactor(poolOf(code)),
        pool: poolOf(code),
        specialActive: holder(board, code) === code,
      });
    const attacker = make(attackerCode, {
      counter: counterA,
      home: ONE,
      sea: border.kind === SEA ? SEA_FACTOR : ONE,
    });
    const defender = make(defenderCode, { counter: counterD, home: HOME_BONUS, sea: ONE });
    const fullA = attacker.pool === POOL_CAP;
    const fullD = defender.pool === POOL_CAP;
    const securedBy = fullA && !fullD ? "attacker" : fullD && !fullA ? "defender" : null;
    const entry = newEntry(n, "regular", draws, attacker, defender);
    entry.candidates = {
      attackers: BigInt(attackers.length),
      borders: BigInt(borders.length),
      defenders: BigInt(defenders.length),
    };
    entry.border = { a: border.a, b: border.b, kind: border.kind, remote: border.remote };
    entry.secured = securedBy !== null;
    fight(entry, attacker, defender, draws, securedBy);
    if (entry.winner !== entry.natural_winner) entry.reason = "FAN POWER";
    else entry.reason = fullA && fullD ? "FAN CLASH" : "NATURAL";
    entry.pools_spent = {};
    for (const side of [attacker, defender]) {
      if (side.pool > 0n) {
        board.factions[side.faction].pool_state = "spent";
        entry.pools_spent[side.faction] = side.pool;
      }
    }
    const loser = entry.loser;
    const moved = world.codes.filter((code) => holder(board, code) === loser);
    for (const code of moved) board.regions[code] = { captured_at: n, owner: entry.winner };
    board.factions[loser].standing = false;
    board.factions[loser].morale = 0n;
    entry.changed_hands = moved;
    entry.absorbed = loser;
    entry.restored = null;
    return entry;
  }

  function rebellion(world, board, n, draws, rebel) {
    const occupier = holder(board, rebel);
    const [counterR, counterO] = counterFactors(
      CATEGORY_TYPES[world.regions.get(rebel).special],
      CATEGORY_TYPES[world.regions.get(occupier).special],
    );
    const rebelSide = sideOf(world, rebel, world.regions.get(rebel).population, 0n, {
      counter: counterR,
      fan: ONE,
      home: ONE,
      pool: 0n,
      sea: ONE,
      specialActive: true,
    });
    const occupierPeople = peopleOf(world, board, occupier, n);
    const occupierMorale = board.factions[occupier].morale;
    const occupierSide = sideOf(world, occupier, occupierPeople, occupierMorale, {
      counter: counterO,
      fan: ONE,
      home: HOME_BONUS,
      pool: 0n,
      sea: ONE,
      specialActive: holder(board, occupier) === occupier,
    });
    const entry = newEntry(n, "bonus", draws, rebelSide, occupierSide);
    entry.candidates = null;
    entry.border = null;
    entry.secured = false;
    fight(entry, rebelSide, occupierSide, draws, null);
    entry.reason = "NATURAL";
    const fund = board.factions[rebel];
    entry.pools_spent = { [rebel]: fund.pool };
    fund.pool_state = "spent";
    entry.absorbed = null;
    if (entry.winner === rebel) {
      board.regions[rebel] = { captured_at: null, owner: rebel };
      fund.standing = true;
      fund.morale = 0n;
      entry.changed_hands = [rebel];
      entry.restored = rebel;
    } else {
      entry.changed_hands = [];
      entry.restored = null;
    }
    return entry;
  }

  /* Morale after a battle: everyone standing decays to 82%, the winner gains, 12% at most. */
  function settleMorale(board, winner, upset) {
    for (const faction of Object.values(board.factions)) {
      if (faction.standing) {
        faction.morale = (faction.morale * MORALE_DECAY.top) / MORALE_DECAY.bottom;
      }
    }
    const won = board.factions[winner];
    const raised = won.morale + (upset ? MORALE_UPSET_BP : MORALE_WIN_BP);
    won.morale = raised > MORALE_CAP_BP ? MORALE_CAP_BP : raised;
  }

  async function nextEntry(season, ledger) {
    const { world, board } = season;
    const n = board.next_battle;
    const due = ledger.filter((e) => e.before_battle === n);
    due.sort((x, y) => (x.seq < y.seq ? -1 : 1));
    for (const contribution of due) contribute(board, contribution);
    const draws = [];
    for (let i = 0n; i < DRAWS_PER_BATTLE; i += 1n) {
      draws.push(await draw(season.key, DRAWS_PER_BATTLE * (n - 1n) + i));
    }
    const waiting = rebelsWaiting(board);
    const entry = waiting.length
      ? rebellion(world, board, n, draws, waiting[0])
      : regularBattle(world, board, n, draws);
    settleMorale(board, entry.winner, entry.upset);
    entry.morale_after = {
      attacker: board.factions[entry.attacker].morale,
      defender: board.factions[entry.defender].morale,
    };
    board.next_battle = n + 1n;
    board.ended = seasonOver(world, board, season.cap);
    entry.season_over = board.ended;
    return entry;
  }

  // ------------------------------------------------------------------ record checks

  function isObject(value) {
    return kindOf(value) === "object";
  }

  function isWhole(value, low = 0n) {
    return typeof value === "bigint" && value >= low;
  }

  function isHex64(value) {
    return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
  }

  function has(value, key) {
    return Object.prototype.hasOwnProperty.call(value, key);
  }

  function onlyKnown(place, value, keys, path = "") {
    if (!isObject(value)) {
      const where = path || "value";
      throw new Mismatch(place, `field ${where}: must be an object, found ${shown(value)}`);
    }
    for (const key of Object.keys(value).sort(byCodePoint)) {
      if (!keys.includes(key)) {
        throw differs(place, path ? `${path}.${key}` : key, NOTHING, value[key]);
      }
    }
  }

  function exactly(place, value, keys, path = "") {
    onlyKnown(place, value, keys, path);
    present(place, value, keys, path);
  }

  function present(place, value, keys, path = "") {
    for (const key of [...keys].sort(byCodePoint)) {
      if (!has(value, key)) {
        throw new Mismatch(place, `field ${path ? `${path}.${key}` : key}: missing`);
      }
    }
  }

  /* The verifier files a header must name: those of an older archive (three, the eight from
   * before the season log, or the thirteen from before luck.json) when it names exactly those,
   * else today's. */
  function engineFilesNamed(files) {
    const keys = isObject(files) ? Object.keys(files).sort(byCodePoint).join("\n") : "";
    for (const older of [LEGACY_ENGINE_FILES, PREVIOUS_ENGINE_FILES, BEFORE_LUCK_ENGINE_FILES,
      BEFORE_WITNESS_ENGINE_FILES]) {
      if (keys === [...older].sort(byCodePoint).join("\n")) return older;
    }
    return ENGINE_FILES;
  }

  function checkHeader(header) {
    if (!isObject(header)) {
      throw new Mismatch("header", `field value: must be an object, found ${shown(header)}`);
    }
    if (header.engine_version !== ENGINE_VERSION) {
      const found = has(header, "engine_version") ? header.engine_version : NOTHING;
      throw differs("header", "engine_version", ENGINE_VERSION, found);
    }
    onlyKnown("header", header, [...HEADER_KEYS, PUBLISHED, LOG_KEY, TIMELOCK]);
    present("header", header, HEADER_KEYS);
    if (header.ruleset !== "conquest") {
      throw differs("header", "ruleset", "conquest", header.ruleset);
    }
    if (typeof header.map_name !== "string" || !header.map_name) {
      throw new Mismatch("header", "field map_name: must be non-empty text");
    }
    if (!isHex64(header.map_sha256)) {
      throw new Mismatch("header", "field map_sha256: must be 64 lowercase hex digits");
    }
    const named = engineFilesNamed(header.engine_files);
    exactly("header", header.engine_files, named, "engine_files");
    for (const name of named) {
      if (!isHex64(header.engine_files[name])) {
        throw new Mismatch("header", `field engine_files.${name}: must be 64 lowercase hex digits`);
      }
    }
    const cap = header.max_battles;
    if (cap !== null && !isWhole(cap, 1n)) {
      const rule = `must be null or a whole number >= 1, found ${shown(cap)}`;
      throw new Mismatch("header", `field max_battles: ${rule}`);
    }
    const spec = header.beacon;
    if (spec !== null) {
      exactly("header", spec, BEACON_SPEC_KEYS, "beacon");
      if (typeof spec.name !== "string" || !isHex64(spec.chain_hash)) {
        throw new Mismatch("header", "field beacon: needs a name and a 64-hex-digit chain_hash");
      }
      for (const key of ["period_seconds", "round"]) {
        if (!isWhole(spec[key], 1n)) {
          throw new Mismatch("header", `field beacon.${key}: must be a whole number >= 1`);
        }
      }
    }
    if (has(header, PUBLISHED)) {
      if (spec === null) throw differs("header", PUBLISHED, NOTHING, header[PUBLISHED]);
      checkedPublished(header[PUBLISHED]);
    }
    if (has(header, LOG_KEY) && !isHex64(header[LOG_KEY])) {
      throw new Mismatch("header", `field ${LOG_KEY}: must be 64 lowercase hex digits`);
    }
    if (has(header, TIMELOCK)) {
      const lock = header[TIMELOCK];
      exactly("header", lock, TIMELOCK_KEYS, TIMELOCK);
      const formed = isHex64(lock.chain_hash) && isWhole(lock.round, 1n)
        && typeof lock.network === "string" && typeof lock.ciphertext === "string";
      if (!formed) {
        throw new Mismatch("header", "field timelock: needs a network, a 64-hex-digit "
          + "chain_hash, a round >= 1 and an armored ciphertext");
      }
    }
  }

  /* Days since 1970-01-01 of a proleptic Gregorian date (exact integers, any year). */
  function daysFromCivil(year, month, day) {
    const y = year - (month <= 2n ? 1n : 0n);
    const era = (y >= 0n ? y : y - 399n) / 400n;
    const yearOfEra = y - era * 400n;
    const dayOfYear = (153n * (month + (month > 2n ? -3n : 9n)) + 2n) / 5n + day - 1n;
    const dayOfEra = yearOfEra * 365n + yearOfEra / 4n - yearOfEra / 100n + dayOfYear;
    return era * 146097n + dayOfEra - 719468n;
  }

  /* Unix seconds (>= 0) as YYYY-MM-DDTHH:MM:SSZ, exactly, for any year. */
  function utcText(seconds) {
    const days = seconds / 86400n;
    const rest = seconds % 86400n;
    const shifted = days + 719468n;
    const era = shifted / 146097n;
    const dayOfEra = shifted - era * 146097n;
    const yearOfEra =
      (dayOfEra - dayOfEra / 1460n + dayOfEra / 36524n - dayOfEra / 146096n) / 365n;
    const dayOfYear = dayOfEra - (365n * yearOfEra + yearOfEra / 4n - yearOfEra / 100n);
    const shiftedMonth = (5n * dayOfYear + 2n) / 153n;
    const day = dayOfYear - (153n * shiftedMonth + 2n) / 5n + 1n;
    const month = shiftedMonth < 10n ? shiftedMonth + 3n : shiftedMonth - 9n;
    const year = yearOfEra + era * 400n + (month <= 2n ? 1n : 0n);
    const two = (n) => String(n).padStart(2, "0");
    const clock = `${two(rest / 3600n)}:${two((rest / 60n) % 60n)}:${two(rest % 60n)}`;
    return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}T${clock}Z`;
  }

  /* Unix seconds of a strict YYYY-MM-DDTHH:MM:SSZ UTC time, or null for anything else. */
  function publishedSeconds(text) {
    const found = typeof text === "string" ? PUBLISHED_PATTERN.exec(text) : null;
    if (found === null) return null;
    const [year, month, day, hour, minute, second] = found.slice(1).map(BigInt);
    const leap = year % 4n === 0n && (year % 100n !== 0n || year % 400n === 0n);
    const monthDays = [31n, leap ? 29n : 28n, 31n, 30n, 31n, 30n, 31n, 31n, 30n, 31n, 30n, 31n];
    if (month < 1n || month > 12n || day < 1n || day > monthDays[Number(month) - 1]) return null;
    if (hour > 23n || minute > 59n || second > 59n) return null;
    return daysFromCivil(year, month, day) * 86400n + hour * 3600n + minute * 60n + second;
  }

  function checkedPublished(value) {
    const seconds = publishedSeconds(value);
    if (seconds === null) {
      const rule = `must be a UTC time written ${PUBLISHED_FORM}, found ${shown(value)}`;
      throw new Mismatch("header", `field ${PUBLISHED}: ${rule}`);
    }
    return seconds;
  }

  /* The beacon round must come out after the header was published; returns [checked, note]. */
  function beaconTiming(header) {
    const spec = header.beacon;
    const known = spec.chain_hash === QUICKNET.chain_hash;
    if (known && spec.period_seconds !== QUICKNET.period_seconds) {
      throw differs("header", "beacon.period_seconds", QUICKNET.period_seconds, spec.period_seconds);
    }
    if (!has(header, PUBLISHED)) {
      return [false, "publication time not recorded: the beacon timing cannot be checked"];
    }
    const published = header[PUBLISHED];
    if (!known) {
      return [
        false,
        `beacon timing not checked: chain ${spec.chain_hash} is not one this verifier ` +
          `knows (header.published ${published})`,
      ];
    }
    const cameOut = QUICKNET.genesis + (spec.round - 1n) * QUICKNET.period_seconds;
    const gap = cameOut - checkedPublished(published);
    const said = `${QUICKNET.name} round ${spec.round} came out at ${utcText(cameOut)}`;
    if (gap <= 0n) {
      throw new Mismatch(
        "header",
        `field beacon.round: ${said}, not after header.published ${published}; ` +
          "the round must come after the commitment is published",
      );
    }
    return [true, `beacon timing: ${said}, ${gap} s after header.published ${published}`];
  }

  function checkMapKeys(map) {
    exactly("map", map, MAP_KEYS.map);
    for (const [name, kind] of [
      ["regions", "region"],
      ["borders", "border"],
    ]) {
      const items = map[name];
      if (!Array.isArray(items)) throw new Mismatch("map", `field ${name}: must be a list`);
      items.forEach((item, i) => {
        onlyKnown("map", item, MAP_KEYS[kind], `${name}[${i}]`);
        if (kind !== "region") return;
        for (const inner of ["ratings", "special"]) {
          if (isObject(item[inner])) {
            onlyKnown("map", item[inner], MAP_KEYS[inner], `${name}[${i}].${inner}`);
          }
        }
      });
    }
  }

  function checkLedgerLines(ledger) {
    let lastSeq = 0n;
    let lastBattle = 0n;
    ledger.forEach((entry, i) => {
      const seq = isObject(entry) ? entry.seq : undefined;
      const place = isWhole(seq) ? `ledger seq ${seq}` : `ledger[${i}]`;
      exactly(place, entry, LEDGER_KEYS);
      if (!isWhole(seq) || seq <= lastSeq) {
        throw new Mismatch(`ledger[${i}].seq`, `must increase strictly, found ${shown(seq)}`);
      }
      const battle = entry.before_battle;
      if (!isWhole(battle) || battle < lastBattle) {
        throw new Mismatch(`${place}.before_battle`, `must not go back, found ${shown(battle)}`);
      }
      if (battle < 1n) {
        const rule = `must be the next battle at arrival; no battle has number ${battle}`;
        throw new Mismatch(`${place}.before_battle`, rule);
      }
      if (typeof entry.faction !== "string" || !isWhole(entry.amount, -(2n ** 64n))) {
        throw new Mismatch(place, "field faction or amount: must be text and a whole number");
      }
      lastSeq = seq;
      lastBattle = battle;
    });
  }

  async function seasonKey(record, header, seed) {
    const beacon = record.beacon;
    const spec = header.beacon;
    if (spec === null) {
      if (beacon !== null) {
        throw new Mismatch("beacon", "recorded, but the header names no beacon round");
      }
      return [seed, [], []];
    }
    const [timed, timing] = beaconTiming(header);
    if (beacon === null) {
      throw new Mismatch("beacon", "the header names a beacon round but none is recorded");
    }
    exactly("beacon", beacon, BEACON_KEYS);
    if (!isWhole(beacon.round, 1n) || beacon.round !== spec.round) {
      throw differs("beacon", "round", spec.round, beacon.round);
    }
    if (!isHex64(beacon.randomness)) {
      throw new Mismatch("beacon", "field randomness: must be 64 lowercase hex digits");
    }
    const note =
      `beacon round ${beacon.round} mixed into the season key; its signature is not ` +
      "checked here (check it against the beacon's own public record)";
    const unchecked = timed ? [note] : [timing, note];
    return [await hmacHex(seed, beacon.randomness), [timing, note], unchecked];
  }

  /* Replay the whole record and compare; throws Mismatch at the first difference. */
  async function verifyRecord(record, onProgress) {
    const header = record.header;
    checkHeader(header);
    const notes = [];
    if (record.manifest) {
      const named = header.engine_files;
      for (const name of Object.keys(named).sort(byCodePoint)) {
        if (record.manifest[name] !== named[name]) {
          throw new Mismatch(name, "its SHA-256 is not the one header.engine_files names for it");
        }
      }
      for (const name of ENGINE_FILES) {
        if (name in record.manifest && !(name in named)) {
          throw new Mismatch(name, "is not one of the files header.engine_files names");
        }
      }
      notes.push("every file matches manifest.sha256; the engine files are the header's");
    }
    const seed = record.seed;
    if (seed === null) {
      throw new Mismatch("seed", "not revealed yet; a season is replayed after the reveal");
    }
    const published = record.commitment;
    const commitment = typeof published === "string" ? published.trim().toLowerCase() : "";
    if (!/^[0-9a-f]{64}$/.test(seed) || hexOf(await sha256(utf8.encode(seed))) !== commitment) {
      throw new Mismatch("seed", "its SHA-256 does not match the published commitment");
    }
    const map = record.map;
    checkMapKeys(map);
    if ((await mapDigest(map)) !== header.map_sha256) {
      throw new Mismatch("map", "its SHA-256 does not match header.map_sha256");
    }
    if (map.name !== header.map_name) {
      throw differs("header", "map_name", map.name, header.map_name);
    }
    notes.push(`seed matches commitment ${record.commitment}`, "map matches header.map_sha256");
    const [key, beaconNotes, unchecked] = await seasonKey(record, header, seed);
    notes.push(...beaconNotes);
    const world = buildWorld(map);
    const season = { world, key, cap: header.max_battles, board: freshBoard(world) };
    const ledger = record.ledger;
    checkLedgerLines(ledger);
    const replayed = [];
    const total = record.history.length;
    while (!season.board.ended) {
      replayed.push(await nextEntry(season, ledger));
      if (onProgress) onProgress(replayed.length, Math.max(total, replayed.length));
    }
    for (const contribution of ledger) {
      if (contribution.before_battle >= season.board.next_battle) {
        const rule = "dated after the season ended; it was never applied";
        throw new Mismatch(`ledger seq ${contribution.seq}`, rule);
      }
    }
    const saved = record.history;
    for (let i = 0; i < Math.min(saved.length, replayed.length); i += 1) {
      const found = firstDifference(saved[i], replayed[i], "");
      if (found) throw differs(`battle ${replayed[i].number}`, found[0], found[2], found[1]);
    }
    if (saved.length > replayed.length) {
      const rule = "extra entry: the season had already ended";
      throw new Mismatch(`battle ${replayed.length + 1}`, rule);
    }
    if (saved.length < replayed.length) {
      throw new Mismatch(`battle ${saved.length + 1}`, "missing: the season had not ended");
    }
    const found = firstDifference(record.final_map, season.board, "");
    if (found) throw differs("final map", found[0], found[2], found[1]);
    notes.push(`${season.board.next_battle - 1n} battles replayed; the final map matches`);
    notes.push(...checkLuck(record, season));
    return { notes, battles: replayed.length, unchecked };
  }

  // ------------------------------------------------------------------ the season's luck

  /* A record's "n/d" text as an exact ratio. */
  function ratioOf(text) {
    const [top, bottom] = String(text).split("/");
    return new Ratio(BigInt(top), BigInt(bottom === undefined ? "1" : bottom));
  }

  function sumOf(ratios) {
    let top = 0n;
    let bottom = 1n;
    for (const r of ratios) {
      top = top * r.bottom + r.top * bottom;
      bottom *= r.bottom;
      const common = gcd(top, bottom) || 1n;
      top /= common;
      bottom /= common;
    }
    return new Ratio(top, bottom);
  }

  /* P(wins >= observed) and P(wins <= observed): the Poisson-binomial multiplied out in whole
   * numbers over one common denominator, as season_luck.tails does. */
  function luckTails(chances, observed) {
    let scale = 1n;
    for (const c of chances) scale = (scale / gcd(scale, c.bottom)) * c.bottom;
    let ways = [1n];
    for (const c of chances) {
      const win = (c.top * scale) / c.bottom;
      const lose = scale - win;
      const next = new Array(ways.length + 1).fill(0n);
      for (let k = 0; k < ways.length; k += 1) {
        next[k] += ways[k] * lose;
        next[k + 1] += ways[k] * win;
      }
      ways = win === 0n ? next.slice(0, ways.length) : next;
    }
    const total = scale ** BigInt(chances.length);
    let atLeast = 0n;
    let atMost = 0n;
    ways.forEach((count, k) => {
      if (k >= observed) atLeast += count;
      if (k <= observed) atMost += count;
    });
    return [tailRatio(atLeast, total), tailRatio(atMost, total)];
  }

  /* A tail as season_luck.tail_text writes it: "0xTOP/0xBOTTOM", lowest terms. */
  function tailText(ratio) {
    return `0x${ratio.top.toString(16)}/0x${ratio.bottom.toString(16)}`;
  }

  function trailingZeros(value) {
    const hex = value.toString(16);
    let end = hex.length;
    while (end > 1 && hex[end - 1] === "0") end -= 1;
    let zeros = (hex.length - end) * 4;
    for (let last = parseInt(hex[end - 1], 16); last % 2 === 0; last /= 2) zeros += 1;
    return BigInt(zeros);
  }

  /* top/bottom in lowest terms. A tail's numbers run to thousands of digits and Euclid's
   * remainders are slow on them; the engine's chances are over powers of two, so the shared
   * twos are taken out first, and then a power-of-two bottom leaves nothing to share. */
  function tailRatio(top, bottom) {
    if (top === 0n) return new Ratio(0n);
    const twos = trailingZeros(top) < trailingZeros(bottom) ? trailingZeros(top)
      : trailingZeros(bottom);
    const [odd, over] = [top >> twos, bottom >> twos];
    if ((over & (over - 1n)) === 0n && (odd & 1n) === 1n) {
      const ratio = Object.create(Ratio.prototype);
      ratio.top = odd;
      ratio.bottom = over;
      return ratio;
    }
    return new Ratio(odd, over);
  }

  function luckRun(chances, observed) {
    const [atLeast, atMost] = luckTails(chances, observed);
    return {
      battles: BigInt(chances.length),
      observed: BigInt(observed),
      expected: sumOf(chances).text(),
      at_least: tailText(atLeast),
      at_most: tailText(atMost),
    };
  }

  function upsetChance(after) {
    if (after.below(UPSET_BELOW)) return after;
    const other = new Ratio(after.bottom - after.top, after.bottom);
    return other.below(UPSET_BELOW) ? other : new Ratio(0n);
  }

  /* The title holder of an ended season: most regions, then most population power, then the
   * lowest code (season_luck.champion_of). */
  function championOf(world, board) {
    if (!board.ended) return null;
    const held = new Map();
    for (const code of Object.keys(board.regions)) {
      const owner = board.regions[code].owner;
      held.set(owner, (held.get(owner) || 0) + 1);
    }
    let best = null;
    for (const [code, count] of held) {
      const power = populationPower(peopleOf(world, board, code, board.next_battle));
      const better =
        best === null ||
        count > best.count ||
        (count === best.count && (power > best.power ||
          (power === best.power && byCodePoint(code, best.code) < 0)));
      if (better) best = { code, count, power };
    }
    return best && best.code;
  }

  /* luck.json as season_luck.season_luck computes it from the history and the champion. */
  function seasonLuck(history, champion) {
    const runs = new Map();
    for (const entry of history) {
      const before = ratioOf(entry.battle_chance.before);
      const after = ratioOf(entry.battle_chance.after);
      const sides = [
        ["attacker", before, after],
        ["defender", new Ratio(before.bottom - before.top, before.bottom),
          new Ratio(after.bottom - after.top, after.bottom)],
      ];
      for (const [role, mineBefore, mineAfter] of sides) {
        const faction = entry[role];
        if (!runs.has(faction)) runs.set(faction, { after: [], before: [], won: 0, secured: 0n });
        const run = runs.get(faction);
        const won = entry.winner === faction;
        run.after.push(mineAfter);
        run.before.push(mineBefore);
        run.won += won ? 1 : 0;
        if (won && entry.secured === true && mineAfter.top === mineAfter.bottom) run.secured += 1n;
      }
    }
    const factions = {};
    for (const faction of [...runs.keys()].sort(byCodePoint)) {
      const run = runs.get(faction);
      factions[faction] = {
        ...luckRun(run.after, run.won),
        expected_before_fan: sumOf(run.before).text(),
        secured: run.secured,
      };
    }
    const upsets = history.filter((entry) => entry.upset === true).length;
    const chances = history.map((entry) => upsetChance(ratioOf(entry.battle_chance.after)));
    return {
      format: LUCK_FORMAT,
      battles: BigInt(history.length),
      factions,
      champion: champion !== null && champion in factions
        ? { faction: champion, ...factions[champion] } : null,
      season: luckRun(chances, upsets),
    };
  }

  /* luck.json equals the luck recomputed from the replayed battles; it is present exactly when
   * the header names the file that computes it. */
  function checkLuck(record, season) {
    const saved = record.luck;
    if (!(LUCK_ENGINE_FILE in record.header.engine_files)) {
      if (saved !== null && saved !== undefined) {
        throw new Mismatch("luck.json", "the header names no season_luck.py to check it");
      }
      return [];
    }
    if (saved === null || saved === undefined) {
      throw new Mismatch("luck.json", "missing from the record");
    }
    const champion = championOf(season.world, season.board);
    const found = firstDifference(saved, seasonLuck(record.history, champion), "");
    if (found) throw differs("luck.json", found[0], found[2], found[1]);
    return ["luck.json matches the luck recomputed from the battles and their exact chances"];
  }

  // ------------------------------------------------------------------ the season log

  /* The log's checks, as log_check.py makes them (docs/season-log.md, last section): the leaves
   * are the record's header, ledger, beacon, history and reveal in an allowed order; every head
   * is signed under header.log_key and a prefix of the final log; each receipt's proof leads to
   * its head and its entry is the log's leaf at its index. Hashing and Ed25519 are seasonlog.js's. */
  const HEAD_FIELDS = ["root", "season", "signature", "size", "time"];
  const RECEIPT_FIELDS = ["entry", "format", "head", "inclusion", "leaf_index"];
  const REFUND_FIELDS = ["amount", "before_battle", "event_id", "faction", "field", "reason"];

  function seasonLog() {
    if (root.FairfightSeasonLog) return root.FairfightSeasonLog;
    try {
      return require("./seasonlog.js"); // beside engine.js in an archive
    } catch {
      return require("../../core/seasonlog.js"); // the source tree (conquest/record/ to core/)
    }
  }

  function exactFields(place, value, fields) {
    if (!isObject(value)) throw new Mismatch(place, `must be a JSON object, found ${shown(value)}`);
    for (const key of Object.keys(value).sort(byCodePoint)) {
      if (!fields.includes(key)) throw new Mismatch(place, `field ${key}: not a field it may hold`);
    }
    for (const key of [...fields].sort(byCodePoint)) {
      if (!has(value, key)) throw new Mismatch(place, `field ${key}: missing`);
    }
  }

  function isHexOf(value, digits) {
    return typeof value === "string" && value.length === digits && /^[0-9a-f]*$/.test(value);
  }

  function headMessage(head) {
    const unsigned = { root: head.root, season: head.season, size: head.size, time: head.time };
    return utf8.encode(HEAD_SIGNING_PREFIX + compact(unsigned));
  }

  class CheckedLog {
    constructor(log, leaves, key, season) {
      this.log = log;
      this.leaves = leaves;
      this.key = key;
      this.season = season;
      this.roots = new Map();
      this.verified = new Set();
      this.cannot = null;
    }

    async prepare() {
      this.hashes = [];
      for (const leaf of this.leaves) this.hashes.push(await this.log.leafHash(utf8.encode(compact(leaf))));
    }

    async root(size) {
      if (!this.roots.has(size)) {
        this.roots.set(size, this.log.hexOf(await this.log.treeHash(this.hashes.slice(0, size))));
      }
      return this.roots.get(size);
    }

    async checkSigned(place, head) {
      exactFields(place, head, HEAD_FIELDS);
      if (head.season !== this.season) {
        const rule = "is a head of another season (its season is not the commitment of this one)";
        throw new Mismatch(place, rule);
      }
      if (!isWhole(head.size, 1n) || !isHexOf(head.root, 64)) {
        throw new Mismatch(place, "needs a size >= 1 and a root of 64 lowercase hex digits");
      }
      if (typeof head.time !== "string" || !isHexOf(head.signature, 128)) {
        throw new Mismatch(place, "needs a time and a signature of 128 lowercase hex digits");
      }
      const seen = compact(head);
      if (this.verified.has(seen) || this.cannot) return;
      let good;
      try {
        const signature = this.log.bytesFromHex(head.signature);
        good = await this.log.verifyEd25519(this.key, headMessage(head), signature);
      } catch (error) {
        this.cannot = error.message; // no Ed25519 here: said so, never taken for a failure
        return;
      }
      if (!good) throw new Mismatch(place, "its signature does not verify under header.log_key");
      this.verified.add(seen);
    }

    /* Where the first leaf that differs lies, from a receipt's [index, proof] (its own leaf
     * matched): the first range whose hash in the proof is not the final log's. */
    async parting([index, proof], size) {
      const ranges = this.log.inclusionRanges(index, size);
      const parted = [];
      for (let i = 0; i < ranges.length; i += 1) {
        const [start, end] = ranges[i];
        const root = await this.log.treeHash(this.hashes.slice(start, end));
        if (this.log.hexOf(root) !== this.log.hexOf(proof[i])) parted.push([start, end]);
      }
      if (!parted.length) return "";
      const [start, end] = parted.sort((x, y) => x[0] - y[0] || x[1] - y[1])[0];
      if (end - start === 1) return `; the first leaf that differs is leaf ${start}`;
      return `; the first leaf that differs is one of leaves ${start} to ${end - 1}`;
    }

    async checkPrefix(place, head, path = null) {
      const size = Number(head.size);
      if (head.size > BigInt(this.leaves.length)) {
        const rule =
          `it signs a log of ${head.size} leaves; the final log has only ${this.leaves.length}: ` +
          "leaves it covers were dropped";
        throw new Mismatch(place, rule);
      }
      if ((await this.root(size)) !== head.root) {
        const rule =
          `its root is not the root of the final log's first ${size} leaves: a leaf it ` +
          `covers (leaves 0 to ${size - 1}) was changed, dropped or moved afterwards` +
          (path ? await this.parting(path, size) : "");
        throw new Mismatch(place, rule);
      }
    }

    async checkReceipt(place, receipt) {
      exactFields(place, receipt, RECEIPT_FIELDS);
      if (receipt.format !== RECEIPT_FORMAT) {
        const rule = `expected ${shown(RECEIPT_FORMAT)}, found ${shown(receipt.format)}`;
        throw new Mismatch(place, `field format: ${rule}`);
      }
      exactFields(`${place} entry`, receipt.entry, LEDGER_KEYS);
      const index = receipt.leaf_index;
      if (!isWhole(index, 0n)) {
        const rule = `must be a whole number >= 0, found ${shown(index)}`;
        throw new Mismatch(place, `field leaf_index: ${rule}`);
      }
      const head = receipt.head;
      await this.checkSigned(`${place} head`, head);
      let proof;
      try {
        proof = this.log.hashesFromHex(receipt.inclusion);
      } catch {
        throw new Mismatch(place, "field inclusion: must be a list of 64-hex-digit hashes");
      }
      const leaf = { kind: "contribution", entry: receipt.entry };
      const hashed = await this.log.leafHash(utf8.encode(compact(leaf)));
      const at = Number(index);
      const fits =
        index < 2n ** 53n &&
        (await this.log.verifyInclusion(
          hashed,
          at,
          Number(head.size),
          proof,
          this.log.bytesFromHex(head.root),
        ));
      if (!fits) {
        const rule = `its inclusion proof does not lead from leaf ${index} to its head's root`;
        throw new Mismatch(place, rule);
      }
      if (at >= this.leaves.length) {
        const rule = `its entry is leaf ${index}; the final log has only ${this.leaves.length}`;
        throw new Mismatch(place, rule);
      }
      const found = firstDifference(leaf, this.leaves[at], "");
      if (found) {
        const rule =
          `leaf ${index} of the final log is not its entry: field ${found[0]}: expected ` +
          `${shown(found[1])}, found ${shown(found[2])}`;
        throw new Mismatch(place, rule);
      }
      await this.checkPrefix(place, head, [at, proof]);
    }
  }

  function expectedLeaves(record) {
    return {
      contribution: record.ledger.map((entry) => ({ kind: "contribution", entry })),
      battle: record.history.map((battle) => ({ kind: "battle", battle })),
      beacon: record.beacon ? [{ kind: "beacon", beacon: record.beacon }] : [],
      reveal: [{ kind: "reveal", seed: record.seed }],
    };
  }

  function orderRule(kind, leaf, battles) {
    if (kind === "contribution") {
      const due = leaf.entry.before_battle;
      if (due !== BigInt(battles + 1)) {
        return `a contribution dated before battle ${due} logged after ${battles} battles`;
      }
    }
    if (kind === "beacon" && battles) {
      return `the beacon logged after battle ${battles}; it must come before battle 1`;
    }
    return null;
  }

  function checkLeaves(record, leaves) {
    if (!leaves.length) throw new Mismatch("log.json", "holds no leaves; leaf 0 must be the header");
    const headerLeaf = { kind: "header", header: record.header };
    const wanted = expectedLeaves(record);
    const taken = Object.fromEntries(Object.keys(wanted).map((kind) => [kind, 0]));
    let battles = 0;
    leaves.forEach((leaf, index) => {
      const place = `log.json leaf ${index}`;
      const named = isObject(leaf) && has(leaf, "kind") ? leaf.kind : null;
      const kind = typeof named === "string" ? named : null;
      let expected;
      if (index === 0 || kind === "header") {
        expected = index === 0 ? headerLeaf : null;
      } else if (taken.reveal) {
        throw new Mismatch(place, "comes after the reveal, which must be the last leaf");
      } else if (kind !== null && has(wanted, kind) && taken[kind] < wanted[kind].length) {
        expected = wanted[kind][taken[kind]];
        taken[kind] += 1;
      } else {
        const rule = `a leaf of kind ${shown(named)} that the archive's record files do not hold`;
        throw new Mismatch(place, rule);
      }
      if (expected === null) throw new Mismatch(place, "a second header; only leaf 0 is the header");
      const found = firstDifference(expected, leaf, "");
      if (found) throw differs(place, found[0], found[1], found[2]);
      const rule = orderRule(String(kind), leaf, battles);
      if (rule) throw new Mismatch(place, rule);
      if (kind === "battle") battles += 1;
    });
    for (const [kind, items] of Object.entries(wanted)) {
      if (taken[kind] < items.length) {
        throw new Mismatch("log.json", `leaf ${shown(items[taken[kind]])} of the record is not in the log`);
      }
    }
  }

  function checkRefunds(refunds) {
    if (!Array.isArray(refunds)) {
      throw new Mismatch("refunds.json", "must be a JSON list of refunds owed");
    }
    refunds.forEach((refund, number) => {
      const place = `refunds.json[${number}]`;
      exactFields(place, refund, REFUND_FIELDS);
      const texts = ["event_id", "faction", "field", "reason"];
      if (!texts.every((key) => typeof refund[key] === "string")) {
        throw new Mismatch(place, "event_id, faction, field and reason must be text");
      }
      if (!isWhole(refund.amount, 1n) || !isWhole(refund.before_battle, 1n)) {
        throw new Mismatch(place, "amount and before_battle must be whole numbers >= 1");
      }
    });
    return [`${refunds.length} refunds owed listed (public part); not leaves of the log`];
  }

  /* The season log against the record and what fans saved ({ name, value } each); throws
   * Mismatch at the first failure; resolves to [notes, unchecked notes]. */
  /* Two saved views signed by the season key that cannot be one log: the same size with two
   * roots, or one a prefix of the final log and the other not (quorum_check.find_split says the
   * same); null otherwise. */
  async function findSplit(checked, receipts, heads) {
    const saved = [
      ...heads.map(({ name, value }) => [`head ${name}`, value]),
      ...receipts.map(({ name, value }) => [`receipt ${name}`, isObject(value) ? value.head : null]),
    ];
    const views = [];
    for (const [place, head] of saved) {
      try {
        await checked.checkSigned(place, head);
      } catch (error) {
        if (error instanceof Mismatch) continue;
        throw error;
      }
      let prefix = true;
      try {
        await checked.checkPrefix(place, head);
      } catch (error) {
        if (!(error instanceof Mismatch)) throw error;
        prefix = false;
      }
      views.push({ place, size: head.size, root: head.root, prefix });
    }
    for (let i = 0; i < views.length; i += 1) {
      for (const other of views.slice(i + 1)) {
        if (views[i].size === other.size && views[i].root !== other.root) {
          return `${views[i].place} and ${other.place} are both signed by the season key for ` +
            `${views[i].size} leaves, with different roots: the season was shown as two logs`;
        }
      }
    }
    const inside = views.find((view) => view.prefix);
    const apart = views.find((view) => !view.prefix);
    if (inside && apart) {
      return `${apart.place} (${apart.size} leaves) and ${inside.place} (${inside.size} ` +
        "leaves) are both signed by the season key but are not one log: the season was shown " +
        "as two logs";
    }
    return null;
  }

  async function checkLog(record, receipts = [], heads = [], given = null) {
    const header = record.header;
    const log = record.log === undefined ? null : record.log;
    const notes = record.refunds != null ? checkRefunds(record.refunds) : [];
    if (!has(header, LOG_KEY)) {
      if (log !== null) throw new Mismatch("log.json", "present, but the header names no log_key");
      for (const [kind, saved] of [["receipt", receipts], ["head", heads]]) {
        for (const { name } of saved) {
          const rule =
            "refused: this season has no log (its header names no log_key), so no receipt " +
            "or head can be checked against it";
          throw new Mismatch(`${kind} ${name}`, rule);
        }
      }
      return [notes, []];
    }
    const library = seasonLog();
    const key = library.bytesFromHex(header[LOG_KEY]);
    if (!library.validPublicKey(key)) {
      const rule =
        `field ${LOG_KEY}: not a usable Ed25519 public key (not a curve point, or one of ` +
        "small order)";
      throw new Mismatch("header", rule);
    }
    if (log === null) {
      throw new Mismatch("log.json", "missing from the record: the header names a log_key");
    }
    exactFields("log.json", log, ["head", "leaves"]);
    if (!Array.isArray(log.leaves)) throw new Mismatch("log.json", "field leaves: must be a list");
    checkLeaves(record, log.leaves);
    const checked = new CheckedLog(library, log.leaves, key, record.commitment);
    await checked.prepare();
    const size = log.leaves.length;
    const final = log.head;
    await checked.checkSigned("log.json head", final);
    if (final.size !== BigInt(size)) throw differs("log.json head", "size", BigInt(size), final.size);
    await checked.checkPrefix("log.json head", final);
    try {
      for (const { name, value } of heads) {
        await checked.checkSigned(`head ${name}`, value);
        await checked.checkPrefix(`head ${name}`, value);
      }
      for (const { name, value } of receipts) await checked.checkReceipt(`receipt ${name}`, value);
    } catch (error) {
      const split = error instanceof Mismatch ? await findSplit(checked, receipts, heads) : null;
      if (split) throw new Mismatch("split view", split);
      throw error;
    }
    notes.push(
      `season log: ${size} leaves, exactly the header, ledger, beacon, history and reveal in ` +
        "an allowed order; the final head is signed under header.log_key and covers them all",
    );
    // Each receipt in words, then the saved heads (log_check.receipt_note, saved_heads_note).
    const names = new Map((record.map.regions || []).map((r) => [String(r.code), String(r.name)]));
    for (const { name, value } of receipts) {
      const entry = value.entry;
      const faction = String(entry.faction);
      notes.push(
        `${name}: your $${entry.amount} for ${names.has(faction) ? names.get(faction) : faction} ` +
          `(${faction}, entry ${entry.seq}, counted in battle ${entry.before_battle}) ` +
          "is in the record: its head is signed by the season key and its entry sits at its " +
          "place in the final log",
      );
    }
    if (heads.length === 1) {
      notes.push("1 saved head: signed by the season key and a prefix of the final log");
    } else if (heads.length) {
      notes.push(
        `${heads.length} saved heads: each signed by the season key and each a prefix of the ` +
          "final log",
      );
    }
    if (given) notes.push(...(await checkCheckpoints(record, checked, given, receipts)));
    if (!checked.cannot) return [notes, []];
    const note =
      `the signatures of the heads: cannot check here (${checked.cannot}); every other check ` +
      "passed: check the signatures with python3 -S verifier.py or node engine.js";
    return [[...notes, note], [note]];
  }

  // ------------------------------------------------------------------ checkpoints and quorums
  /* quorum_check.py's checks: a saved checkpoint is signed by the season key under an origin
   * naming this season, carries cosignatures (cosignature/v1) by at least `quorum` of the given
   * witnesses (else a Refusal, exit 2), and its root is the final log's of its size. */

  function fromBase64(text) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return new Uint8Array(0);
    const raw = inNode ? Buffer.from(text, "base64") : Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    return new Uint8Array(raw);
  }

  async function keyId(name, type, key) {
    const digest = await sha256(new Uint8Array([...utf8.encode(`${name}\n`), type, ...key]));
    return digest.slice(0, 4);
  }

  async function witnessKeys(vkeys, quorum) {
    const keys = [];
    for (const vkey of vkeys) {
      const first = vkey.indexOf("+");
      const second = first < 0 ? -1 : vkey.indexOf("+", first + 1);
      const [name, id, encoded] = second < 0 ? ["", "", ""] :
        [vkey.slice(0, first), vkey.slice(first + 1, second), vkey.slice(second + 1)];
      const typed = fromBase64(encoded);
      const key = typed.slice(1);
      if (!name || typed.length !== 33 || typed[0] !== 4 ||
          seasonLog().hexOf(await keyId(name, 4, key)) !== id) {
        throw new Refusal("--witness", `${JSON.stringify(vkey.slice(0, 40))}: not a ` +
          "cosignature/v1 witness key whose key id matches its name and key");
      }
      keys.push({ name, id, key });
    }
    if (new Set(keys.map((k) => k.name)).size !== keys.length) {
      throw new Refusal("--witness", "each witness may be given once");
    }
    if (quorum > keys.length) {
      throw new Refusal("--quorum",
        `${quorum} needs at least ${quorum} --witness keys, ${keys.length} given`);
    }
    return keys;
  }

  /* [body, [[name, blob]...]] of a note (its text with the final newline, its signatures). */
  function noteParts(note) {
    const cut = note.indexOf("\n\n");
    if (cut < 0) return [note, []];
    const lines = note.slice(cut + 2).split("\n").filter((line) => line !== "");
    return [note.slice(0, cut + 1), lines.map((line) => {
      const [dash, name, encoded] = line.split(" ");
      return dash === "\u2014" && name && encoded ? [name, fromBase64(encoded)] : ["", null];
    })];
  }

  async function cosignedBy(body, signatures, keys) {
    const found = new Set();
    for (const [name, blob] of signatures) {
      const key = keys.find((k) => k.name === name);
      if (!key || !blob || blob.length !== 76 || seasonLog().hexOf(blob.slice(0, 4)) !== key.id) {
        continue;
      }
      let time = 0n;
      for (const byte of blob.slice(4, 12)) time = time * 256n + BigInt(byte);
      const message = utf8.encode(`cosignature/v1\ntime ${time}\n${body}`);
      if (await seasonLog().verifyEd25519(key.key, message, blob.slice(12))) found.add(name);
    }
    return [...found].sort(byCodePoint);
  }

  async function openCheckpoint(place, note, record) {
    const origin = note.split("\n", 1)[0];
    if (!origin.endsWith(`/conquest/${record.commitment}`)) {
      throw new Mismatch(place, "its origin does not name this season's commitment");
    }
    const [body, signatures] = noteParts(note);
    const key = seasonLog().bytesFromHex(record.header[LOG_KEY]);
    const id = seasonLog().hexOf(await keyId(origin, 1, key));
    let signed = false;
    for (const [name, blob] of signatures) {
      if (name === origin && blob && blob.length === 68 && seasonLog().hexOf(blob.slice(0, 4)) === id) {
        signed = signed || (await seasonLog().verifyEd25519(key, utf8.encode(body), blob.slice(4)));
      }
    }
    const lines = body.split("\n");
    if (!signed || lines.length !== 4 || !/^(0|[1-9][0-9]*)$/.test(lines[1])) {
      throw new Mismatch(place, "not a checkpoint signed by the season key");
    }
    return { body, signatures, size: BigInt(lines[1]), root: seasonLog().hexOf(fromBase64(lines[2])) };
  }

  async function checkCheckpoints(record, checked, given, receipts) {
    const keys = await witnessKeys(given.witnesses, given.quorum);
    if (given.quorum && !given.checkpoints.length) {
      throw new Refusal("--quorum", "needs at least one --checkpoint to hold to it");
    }
    const notes = [];
    let covered = 0n;
    for (const { name, text } of given.checkpoints) {
      const place = `checkpoint ${name}`;
      const seen = await openCheckpoint(place, text, record);
      const found = await cosignedBy(seen.body, seen.signatures, keys);
      if (found.length < given.quorum) {
        const shown = found.length ? `: ${found.join(", ")}` : "";
        throw new Refusal(place, `cosigned by ${found.length} of the ${given.quorum} witnesses ` +
          `you require${shown}`);
      }
      if (seen.size > BigInt(checked.hashes.length) ||
          (await checked.root(Number(seen.size))) !== seen.root) {
        throw new Mismatch(place, `the log of ${seen.size} leaves it signs is not the first ` +
          "leaves of the final log: the archive is not the log this checkpoint showed");
      }
      if (seen.size > covered) covered = seen.size;
      const by = found.length ? `cosigned by ${found.length} of ${keys.length} witnesses: ` +
        found.join(", ") : "no witness cosignature checked";
      notes.push(`checkpoint ${name}: ${seen.size} leaves, signed by the season key, ${by}; a ` +
        "prefix of the final log");
    }
    for (const { name, value } of given.quorum ? receipts : []) {
      if (BigInt(value.leaf_index) >= covered) {
        throw new Refusal(`receipt ${name}`, `its leaf ${value.leaf_index} is in no checkpoint ` +
          `given with ${given.quorum} cosignatures; save a newer one`);
      }
    }
    return notes;
  }

  /* A saved receipt or head, read as one JSON value like a record file. */
  function parseSaved(name, bytes) {
    if (bytes.length > FILE_LIMIT) throw new Mismatch(name, `larger than ${FILE_LIMIT} bytes; refused`);
    return { name, value: parseFile(name, bytes, true) };
  }

  // ------------------------------------------------------------------ reading an archive

  function parseFile(name, bytes, single = false) {
    refuseByteOrderMark(name, bytes);
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new Mismatch(name, "not UTF-8 text");
    }
    if (name.endsWith(".txt") && !single) return text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");
    const many = name.endsWith(".jsonl") && !single;
    const lines = many ? text.split("\n") : [text];
    const values = [];
    lines.forEach((line, i) => {
      if (many && !line.replace(/[ \t\n\r]/g, "")) return;
      try {
        values.push(readJson(line));
      } catch (error) {
        if ([WholeNumbers, TwiceNamed, LoneSurrogate].some((kind) => error instanceof kind)) {
          throw new Mismatch(name, `line ${i + 1}: ${error.message}`);
        }
        if (error.message === "nested too deeply") {
          throw new Mismatch(name, `line ${i + 1}: nested too deeply`);
        }
        throw new Mismatch(name, `line ${i + 1}: not valid JSON (${shown(error.message)})`);
      }
    });
    return many ? values : values[0];
  }

  async function checkManifest(files) {
    if (!files.has(MANIFEST)) throw new Mismatch(MANIFEST, "missing from the record");
    refuseByteOrderMark(MANIFEST, files.get(MANIFEST));
    const listed = new Map();
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(files.get(MANIFEST));
    const lines = text.split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    lines.forEach((line, i) => {
      const cut = line.indexOf("  ");
      const digest = cut < 0 ? line : line.slice(0, cut);
      const name = cut < 0 ? "" : line.slice(cut + 2);
      if (!isHex64(digest) || !ARCHIVE_NAMES.includes(name) || name === MANIFEST) {
        const rule = `not '<sha256>  <record file name>': ${shown(line)}`;
        throw new Mismatch(MANIFEST, `line ${i + 1}: ${rule}`);
      }
      if (listed.has(name)) throw new Mismatch(MANIFEST, `line ${i + 1}: ${name} is listed twice`);
      listed.set(name, digest);
    });
    const names = new Set([...listed.keys(), ...[...files.keys()].filter((n) => n !== MANIFEST)]);
    for (const name of [...names].sort(byCodePoint)) {
      if (!files.has(name)) {
        throw new Mismatch(name, `listed in ${MANIFEST} but missing from the record`);
      }
      if (!listed.has(name)) throw new Mismatch(name, `not listed in ${MANIFEST}`);
      if (hexOf(await sha256(files.get(name))) !== listed.get(name)) {
        throw new Mismatch(name, `its SHA-256 does not match ${MANIFEST}`);
      }
    }
    return Object.fromEntries(listed);
  }

  /* The record from an archive's files (a Map of name -> bytes), manifest checked first. */
  async function recordFromFiles(files) {
    const record = { manifest: await checkManifest(files) };
    for (const [role, name] of Object.entries(RECORD_FILES)) {
      if (!files.has(name)) {
        if (role === "seed" || role === "beacon") {
          record[role] = null;
          continue;
        }
        throw new Mismatch(name, "missing from the record");
      }
      record[role] = parseFile(name, files.get(name));
    }
    for (const [role, name] of Object.entries(LOG_RECORD_FILES)) {
      record[role] = files.has(name) ? parseFile(name, files.get(name)) : null;
    }
    return record;
  }

  /* The archive rules of records.py (`read_zip_members`), in the same order and words: the zip
   * is read from its own end record and directory, checked whole, then each member inflated a
   * chunk at a time against the size its directory states. */
  const ZIP_RULES = {
    members: 48,
    memberBytes: 64 * 1024 * 1024,
    archiveBytes: 128 * 1024 * 1024,
    ratio: 200,
    ratioFloor: 1024 * 1024,
    chunk: 64 * 1024,
  };
  const ARCHIVE_MAGIC = [
    [0x50, 0x4b, 3, 4],
    [0x50, 0x4b, 5, 6],
    [0x1f, 0x8b],
    [0x42, 0x5a, 0x68],
    [0xfd, 0x37, 0x7a, 0x58, 0x5a],
    [0x37, 0x7a, 0xbc, 0xaf],
  ];
  const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });

  function crc32(bytes) {
    let c = 0xffffffff;
    for (let i = 0; i < bytes.length; i += 1) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  function nameRule(name) {
    if (name.includes("\\")) return "its name holds a backslash";
    if (name.startsWith("/")) return "its name is an absolute path";
    if (name.length >= 2 && name[1] === ":" && /\p{L}/u.test(name[0])) {
      return "its name starts with a drive letter";
    }
    if (name.split("/").includes("..")) return "its name climbs out of the folder (..)";
    return null;
  }

  function zipDirectory(bytes, view) {
    const unreadable = (why) => new Mismatch("archive", `not a readable zip archive (${why})`);
    let end = -1;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i -= 1) {
      if (view.getUint32(i, true) === 0x06054b50) {
        end = i;
        break;
      }
    }
    if (end < 0) throw unreadable("no end of directory");
    const count = view.getUint16(end + 10, true);
    const size = view.getUint32(end + 12, true);
    const start = view.getUint32(end + 16, true);
    if ([count, size, start].some((v) => v === 0xffff || v === 0xffffffff)) {
      throw new Mismatch("archive", "zip64 archives are not season archives");
    }
    if (view.getUint16(end + 4, true) || view.getUint16(end + 6, true)) {
      throw new Mismatch("archive", "multi-disk archives are not season archives");
    }
    if (count > ZIP_RULES.members) {
      throw new Mismatch("archive", `lists ${count} members; at most ${ZIP_RULES.members} are allowed`);
    }
    if (start + size > end) throw unreadable("directory out of place");
    const members = [];
    let at = start;
    for (let i = 0; i < count; i += 1) {
      if (at + 46 > end) throw unreadable("directory cut short");
      if (view.getUint32(at, true) !== 0x02014b50) throw unreadable("directory damaged");
      const flags = view.getUint16(at + 8, true);
      const nameLength = view.getUint16(at + 28, true);
      const raw = bytes.subarray(at + 46, at + 46 + nameLength);
      const decoder = flags & 0x800 ? new TextDecoder() : new TextDecoder("latin1");
      members.push({
        name: decoder.decode(raw),
        flags,
        method: view.getUint16(at + 10, true),
        crc: view.getUint32(at + 16, true),
        packed: view.getUint32(at + 20, true),
        size: view.getUint32(at + 24, true),
        offset: view.getUint32(at + 42, true),
      });
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return members;
  }

  function checkDeclared(members) {
    const seen = new Set();
    let total = 0;
    for (const m of members) {
      let rule = nameRule(m.name);
      if (rule === null && seen.has(m.name)) rule = "listed twice";
      if (rule === null && !ARCHIVE_NAMES.includes(m.name)) rule = "is not a file of a season record";
      if (rule === null && (m.flags & 1 || m.method === 99)) {
        rule = "encrypted; season archives are never encrypted";
      }
      if (rule === null && m.method !== 0 && m.method !== 8) {
        rule = `compression method ${m.method}; only stored (0) and deflate (8) are read`;
      }
      if (rule === null && m.size > ZIP_RULES.memberBytes) {
        rule = `declares ${m.size} bytes; at most ${ZIP_RULES.memberBytes} are allowed`;
      }
      total += m.size;
      if (rule === null && total > ZIP_RULES.archiveBytes) {
        rule = `brings the archive past ${ZIP_RULES.archiveBytes} bytes in all; refused`;
      }
      if (rule === null && m.size > Math.max(ZIP_RULES.ratioFloor, ZIP_RULES.ratio * m.packed)) {
        rule = `declares more than ${ZIP_RULES.ratio} times its compressed size; refused`;
      }
      if (rule === null && m.method === 0 && m.size !== m.packed) {
        rule = "stored, yet its sizes differ";
      }
      if (rule !== null) throw new Mismatch(shownName(m.name), rule);
      seen.add(m.name);
    }
  }

  function shownName(name) {
    const letters = Array.from(name);
    return letters.length <= 80 ? name : `${letters.slice(0, 77).join("")}...`;
  }

  async function memberBytes(bytes, view, m, inflateRaw) {
    const damaged = (why) => new Mismatch(m.name, `damaged inside the zip archive (${why})`);
    if (m.offset + 30 > bytes.length) throw damaged("no local header");
    const nameLength = view.getUint16(m.offset + 26, true);
    const nameAt = m.offset + 30;
    const localName = new TextDecoder().decode(bytes.subarray(nameAt, nameAt + nameLength));
    if (view.getUint32(m.offset, true) !== 0x04034b50 || localName !== m.name) {
      throw damaged("local header disagrees");
    }
    const start = nameAt + nameLength + view.getUint16(m.offset + 28, true);
    if (start + m.packed > bytes.length) throw damaged("cut short");
    const packed = bytes.subarray(start, start + m.packed);
    const content = m.method === 0 ? packed : await inflateRaw(packed, m.size, damaged, m.name);
    if (content.length !== m.size) throw new Mismatch(m.name, "shorter than its declared size");
    if (crc32(content) !== m.crc) throw new Mismatch(m.name, "its CRC-32 does not match its bytes");
    if (ARCHIVE_MAGIC.some((magic) => magic.every((b, i) => content[i] === b))) {
      throw new Mismatch(m.name, "holds a nested archive; season archives hold none");
    }
    return content;
  }

  /* The files of a flat .zip archive, after the archive rules. */
  async function unzip(bytes, inflateRaw) {
    if (bytes.length > ZIP_RULES.archiveBytes) {
      throw new Mismatch("archive", `larger than ${ZIP_RULES.archiveBytes} bytes; refused`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const members = zipDirectory(bytes, view);
    checkDeclared(members);
    const files = new Map();
    for (const m of members) files.set(m.name, await memberBytes(bytes, view, m, inflateRaw));
    return files;
  }

  function pastSize(name) {
    return new Mismatch(name, "inflates past its declared size; refused");
  }

  /* Node: inflate at most `size` + 1 bytes, so a member lying about its size stops there. */
  async function nodeInflate(data, size, damaged, name) {
    const zlib = require("node:zlib");
    let inflated;
    try {
      inflated = zlib.inflateRawSync(data, { maxOutputLength: Math.max(size, 1), info: true });
    } catch (error) {
      if (error instanceof RangeError || error.code === "ERR_BUFFER_TOO_LARGE") {
        throw pastSize(name);
      }
      throw damaged("deflate stream");
    }
    if (inflated.engine.bytesWritten !== data.length) throw damaged("deflate stream");
    return new Uint8Array(inflated.buffer);
  }

  /* A browser: read the inflated stream chunk by chunk and stop once it passes `size`. */
  async function browserInflate(data, size, damaged, name) {
    const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    const reader = stream.getReader();
    const parts = [];
    let produced = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        produced += value.length;
        if (produced > size) {
          reader.cancel();
          throw pastSize(name);
        }
        parts.push(value);
      }
    } catch (error) {
      if (error instanceof Mismatch) throw error;
      throw damaged("deflate stream");
    }
    const out = new Uint8Array(produced);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /* The saved receipts and heads of `options` ({ name, bytes } each), parsed; Mismatch names one. */
  function savedOf(options) {
    const parse = (items) => (items || []).map(({ name, bytes }) => parseSaved(name, bytes));
    return { receipts: parse(options.receipts), heads: parse(options.heads) };
  }

  function failure(error) {
    if (error instanceof Refusal) {
      return { ok: false, refused: true, place: error.place, detail: error.detail,
        message: error.message };
    }
    if (!(error instanceof Mismatch)) {
      const detail = `malformed (${error.name}: ${error.message})`;
      return { ok: false, place: "record", detail, message: `record: ${detail}` };
    }
    return { ok: false, place: error.place, detail: error.detail, message: error.message };
  }

  async function settle(files, onProgress, saved = { receipts: [], heads: [] }) {
    try {
      const record = await recordFromFiles(files);
      const { notes, battles, unchecked } = await verifyRecord(record, onProgress);
      const [logNotes, logUnchecked] =
        await checkLog(record, saved.receipts, saved.heads, saved.quorum || null);
      return {
        ok: true,
        notes: [...notes, ...logNotes],
        battles,
        unchecked: [...unchecked, ...logUnchecked],
      };
    } catch (error) {
      return failure(error);
    }
  }

  /* The witness requirement of `given` ({ checkpoints, witnesses, quorum }) with its
   * checkpoints read (`read` maps them to { name, bytes }); the keys are checked before any
   * replay, so a bad --witness or --quorum is refused at once. */
  async function quorumOf(given, read) {
    await witnessKeys(given.witnesses, given.quorum);
    const checkpoints = read(given.checkpoints || []).map(
      ({ name, bytes }) => ({ name, text: new TextDecoder().decode(bytes) }));
    return { ...given, checkpoints };
  }

  /* Verify a season archive given as the bytes of its .zip file; `options.receipts` and
   * `options.heads` are saved files as { name, bytes }; `options.quorum`, when given, is
   * { checkpoints: [{ name, bytes }...], witnesses: [vkey...], quorum: K }. */
  async function verifyArchive(bytes, options = {}) {
    let files;
    let saved;
    try {
      saved = savedOf(options);
      if (options.quorum) saved.quorum = await quorumOf(options.quorum, (item) => item);
    } catch (error) {
      return failure(error);
    }
    try {
      const inflate = inNode ? nodeInflate : browserInflate;
      files = await unzip(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), inflate);
    } catch (error) {
      const m =
        error instanceof Mismatch ? error : new Mismatch("archive", "not a readable zip archive");
      return { ok: false, place: m.place, detail: m.detail, message: m.message };
    }
    return settle(files, options.onProgress, saved);
  }

  // ------------------------------------------------------------------ command line (Node)

  async function readSource(path) {
    const fs = require("node:fs");
    const join = require("node:path").join;
    const info = fs.statSync(path);
    if (!info.isDirectory()) {
      if (!info.isFile()) throw new Mismatch("archive", "not a regular file");
      if (info.size > ZIP_RULES.archiveBytes) {
        throw new Mismatch("archive", `larger than ${ZIP_RULES.archiveBytes} bytes; refused`);
      }
      return unzip(new Uint8Array(fs.readFileSync(path)), nodeInflate);
    }
    const files = new Map();
    for (const name of ARCHIVE_NAMES) {
      const full = join(path, name);
      let stat;
      try {
        stat = fs.lstatSync(full);
      } catch {
        continue;
      }
      if (!stat.isFile()) {
        if (stat.isSymbolicLink()) {
          try {
            if (fs.statSync(full).isFile()) stat = fs.statSync(full);
          } catch {
            /* a dangling link is not a regular file */
          }
        }
        if (!stat.isFile()) throw new Mismatch(name, "not a regular file");
      }
      if (stat.size > FILE_LIMIT) {
        throw new Mismatch(name, `larger than ${FILE_LIMIT} bytes; refused`);
      }
      files.set(name, new Uint8Array(fs.readFileSync(full)));
    }
    return files;
  }

  /* Node: verify a folder or a .zip by path; resolves like verifyArchive. `options.receipts`
   * and `options.heads` are paths of saved files. */
  async function verifyPath(path, options = {}) {
    const fs = require("node:fs");
    const basename = require("node:path").basename;
    try {
      const read = (paths) =>
        (paths || []).map((file) => {
          if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
            throw new Mismatch(basename(file), "no such file");
          }
          return { name: basename(file), bytes: new Uint8Array(fs.readFileSync(file)) };
        });
      const saved = savedOf({ receipts: read(options.receipts), heads: read(options.heads) });
      if (options.quorum) saved.quorum = await quorumOf(options.quorum, read);
      return await settle(await readSource(path), options.onProgress, saved);
    } catch (error) {
      if (!(error instanceof Mismatch) && !(error instanceof Refusal)) throw error;
      return failure(error);
    }
  }

  const USAGE =
    "usage: node engine.js verify RECORD_FOLDER_OR_ZIP [--receipt FILE]... [--head FILE]... " +
    "[--checkpoint FILE]... [--witness VKEY]... [--quorum K]\n";

  async function main(args) {
    const receipts = [];
    const heads = [];
    const quorum = { checkpoints: [], witnesses: [], quorum: 0 };
    const options = args.slice(2);
    let usable = args.length >= 2 && args[0] === "verify" && options.length % 2 === 0;
    for (let i = 0; usable && i < options.length; i += 2) {
      const value = options[i + 1];
      if (options[i] === "--receipt") receipts.push(value);
      else if (options[i] === "--head") heads.push(value);
      else if (options[i] === "--checkpoint") quorum.checkpoints.push(value);
      else if (options[i] === "--witness") quorum.witnesses.push(value);
      else if (options[i] === "--quorum" && /^[0-9]{1,3}$/.test(value)) quorum.quorum = Number(value);
      else usable = false;
    }
    if (!usable) {
      process.stderr.write(USAGE);
      return 2;
    }
    const fs = require("node:fs");
    for (const path of [args[1], ...receipts, ...heads, ...quorum.checkpoints]) {
      if (!fs.existsSync(path)) {
        process.stderr.write(`no such folder or file: ${path}\n`);
        return 2;
      }
    }
    const result = await verifyPath(args[1], { receipts, heads, quorum });
    if (!result.ok && result.refused) {
      process.stderr.write(`REFUSED ${result.message}\n`);
      return 2;
    }
    if (!result.ok) {
      process.stderr.write(`MISMATCH ${result.message}\n`);
      return 1;
    }
    for (const note of result.notes) process.stdout.write(`ok: ${note}\n`);
    return 0;
  }

  /* The battle chance for five round chances out of 2^32, as "top/bottom" (for pages and tests). */
  function battleChance(roundChances) {
    return winChance(roundChances.map(BigInt)).text();
  }

  /* The rules' constants under their tables.py names, as JSON values: integers as numbers,
   * fractions as "top/bottom" (tests compare them with tables.py). */
  function tables() {
    const plain = (value) => {
      if (typeof value === "bigint") return Number(value);
      if (value instanceof Ratio) return value.text();
      if (Array.isArray(value)) return value.map(plain);
      if (value !== null && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
      }
      return value;
    };
    return plain({
      BASIS_POINTS,
      BEFORE_LUCK_ENGINE_FILES,
      BEFORE_WITNESS_ENGINE_FILES,
      BORDER_KINDS,
      CATEGORIES,
      CATEGORY_TYPES,
      CLAMP_PER_MILLE,
      COUNTERS,
      COUNTER_BONUS,
      COUNTER_CIRCLE,
      DRAWS_PER_BATTLE,
      DRAW_ROLES,
      ENGINE_FILES,
      ENGINE_VERSION,
      FAN_BOOST_AT_CAP,
      GUIDE,
      HOME_BONUS,
      INTEGRATION_DENOMINATOR,
      INTEGRATION_START,
      INTEGRATION_STEP,
      LAND,
      LEGACY_ENGINE_FILES,
      LOG_KEY,
      LOG_RECORD_FILES,
      LUCK_ENGINE_FILE,
      LUCK_FORMAT,
      MANIFEST,
      MORALE_CAP_BP,
      MORALE_DECAY,
      MORALE_UPSET_BP,
      MORALE_WIN_BP,
      POOL_CAP,
      POOL_STEP,
      POWER_EXPONENT,
      POWER_SCALE,
      PREVIOUS_ENGINE_FILES,
      QUICKNET,
      RATING_MAX,
      RATING_MIN,
      RATING_WEIGHTS,
      RECORD_FILES,
      ROUNDS_TO_WIN,
      ROUND_BITS,
      ROUND_CEILING,
      ROUND_FLOOR,
      ROUND_SCALE,
      SEA,
      SEA_FACTOR,
      SHOWN_LENGTH,
      SPECIAL_BONUS,
      STRENGTH_FACTORS,
      UPSET_BELOW,
    });
  }

  const api = {
    ENGINE_VERSION,
    ROUND_FLOOR,
    Mismatch,
    battleChance,
    checkLog,
    integerRoot,
    populationPower,
    publishedSeconds,
    readJson,
    recordFromFiles,
    seasonLuck,
    tables,
    utcText,
    verifyArchive,
    verifyFiles: settle,
    verifyPath,
    verifyRecord,
  };
  root.FairfightConquest = api;
  if (typeof module === "object" && module.exports) module.exports = api;
  if (inNode && typeof require === "function" && require.main === module) {
    main(process.argv.slice(2)).then(
      (code) => {
        process.exitCode = code;
      },
      (error) => {
        process.stderr.write(`error: ${error && error.message}\n`);
        process.exitCode = 2;
      },
    );
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
