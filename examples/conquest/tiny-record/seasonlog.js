/*
 * fairfight season log: the checks a fan's own machine makes on a signed season log, in plain
 * JavaScript for Node and for browsers.
 *
 * - The Merkle tree of RFC 9162 section 2.1: a tree's root from its leaf hashes, and the checks
 *   of an inclusion proof (2.1.3.2) and of a consistency proof (2.1.4.2). It mirrors
 *   src/fairfight/core/merkle.py; tests hold the two to the same answers.
 * - Ed25519 signatures (RFC 8032): node:crypto in Node, Web Crypto in a browser. Before the
 *   library sees a key, the key is decoded here by the rules of RFC 8032 section 5.1.3, so a
 *   non-canonical key that OpenSSL or BoringSSL would silently reduce is refused exactly as
 *   src/fairfight/core/ed25519.py refuses it.
 *
 * Bytes are Uint8Array (a Node Buffer is one); hashes are 32 bytes; a proof is an array of
 * hashes, innermost first; sizes and indices are non-negative safe integers. Every check
 * resolves to true or false and never throws on malformed input; verifyEd25519 rejects (with
 * an Error saying so) only where the platform cannot check Ed25519 at all, so that a browser
 * without it never reports a genuine signature as false.
 *
 * In Node: const log = require("./seasonlog.js"); in a page or a worker, load the file and use
 * self.FairfightSeasonLog. Every function that hashes returns a Promise.
 */
"use strict";

(function (root) {
  const inNode = typeof process === "object" && !!(process.versions && process.versions.node);
  const HASH_BYTES = 32;
  const LEAF_PREFIX = 0x00;
  const NODE_PREFIX = 0x01;
  const EMPTY_ROOT_HEX = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  // ------------------------------------------------------------------ bytes and hashes

  function hexOf(bytes) {
    let text = "";
    for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
    return text;
  }

  /* Lowercase hex only, one spelling per value, as merkle.hashes_from_hex insists. */
  function bytesFromHex(text) {
    if (typeof text !== "string" || text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) {
      throw new TypeError("expected lowercase hex digits, an even number of them");
    }
    const bytes = new Uint8Array(text.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return bytes;
  }

  /* A proof read from JSON: a list of 64-digit lowercase hex strings, or a TypeError. */
  function hashesFromHex(values) {
    if (!Array.isArray(values)) throw new TypeError("a proof is a list of hex strings");
    return values.map((value, position) => {
      if (typeof value !== "string" || value.length !== 2 * HASH_BYTES) {
        throw new TypeError(`proof[${position}] is not 64 lowercase hex digits`);
      }
      return bytesFromHex(value);
    });
  }

  function isBytes(value) {
    return value instanceof Uint8Array;
  }

  function isHash(value) {
    return isBytes(value) && value.length === HASH_BYTES;
  }

  function isCount(value) {
    return Number.isSafeInteger(value) && value >= 0;
  }

  function sameBytes(first, second) {
    if (first.length !== second.length) return false;
    let difference = 0;
    for (let i = 0; i < first.length; i++) difference |= first[i] ^ second[i];
    return difference === 0;
  }

  async function sha256(bytes) {
    if (inNode) {
      return new Uint8Array(require("node:crypto").createHash("sha256").update(bytes).digest());
    }
    return new Uint8Array(await root.crypto.subtle.digest("SHA-256", bytes));
  }

  /* SHA-256(0x00 || leaf): the hash a leaf enters the tree as. */
  function leafHash(leaf) {
    const joined = new Uint8Array(leaf.length + 1);
    joined[0] = LEAF_PREFIX;
    joined.set(leaf, 1);
    return sha256(joined);
  }

  /* SHA-256(0x01 || left || right): the hash of an inner node. */
  function nodeHash(left, right) {
    const joined = new Uint8Array(1 + left.length + right.length);
    joined[0] = NODE_PREFIX;
    joined.set(left, 1);
    joined.set(right, 1 + left.length);
    return sha256(joined);
  }

  // ------------------------------------------------------------------ the Merkle tree

  /*
   * MTH of the leaves whose leaf hashes are given, in order (RFC 9162 2.1.1). Complete subtrees
   * are merged as they fill, then the rest folded from the right, which is MTH's split at the
   * largest power of two below the size, applied all the way down.
   */
  /* The leaf ranges [start, end) whose roots make up the inclusion proof of leaf `index` in a
   * tree of `size` leaves, innermost first (as merkle.inclusion_ranges); throws RangeError
   * unless 0 <= index < size. */
  function inclusionRanges(index, size) {
    if (!isCount(index) || !isCount(size) || index >= size) {
      throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
    }
    const ranges = [];
    let start = 0;
    let end = size;
    while (end - start > 1) {
      let split = 1;
      while (split * 2 < end - start) split *= 2;
      const middle = start + split;
      if (index < middle) {
        ranges.push([middle, end]);
        end = middle;
      } else {
        ranges.push([start, middle]);
        start = middle;
      }
    }
    return ranges.reverse();
  }

  async function treeHash(leafHashes) {
    if (leafHashes.length === 0) return bytesFromHex(EMPTY_ROOT_HEX);
    const stack = []; // [leaf count, hash] of complete subtrees, largest first
    for (const hashed of leafHashes) {
      if (!isHash(hashed)) throw new TypeError("a leaf hash is 32 bytes");
      let entry = [1, hashed];
      while (stack.length && stack[stack.length - 1][0] === entry[0]) {
        const [count, left] = stack.pop();
        entry = [2 * count, await nodeHash(left, entry[1])];
      }
      stack.push(entry);
    }
    let right = stack.pop()[1];
    while (stack.length) right = await nodeHash(stack.pop()[1], right);
    return right;
  }

  const isOdd = (number) => number % 2 === 1;
  const half = (number) => Math.floor(number / 2);

  function isPowerOfTwo(number) {
    while (number > 1 && !isOdd(number)) number = half(number);
    return number === 1;
  }

  /*
   * The walk both checks of RFC 9162 share (2.1.3.2 step 4, 2.1.4.2 step 6), as merkle._climb:
   * from `node`, in a tree whose last leaf is `last`, fold the path's hashes into `start`.
   * Resolves to [the hash of the hashes joining on the left only, the hash of all of them], or
   * null unless the path ends exactly at the root.
   */
  async function climb(node, last, start, path) {
    let leftOnly = start;
    let everything = start;
    for (const step of path) {
      if (last === 0) return null;
      if (isOdd(node) || node === last) {
        leftOnly = await nodeHash(step, leftOnly);
        everything = await nodeHash(step, everything);
        while (!isOdd(node) && node !== 0) {
          node = half(node);
          last = half(last);
        }
      } else {
        everything = await nodeHash(everything, step);
      }
      node = half(node);
      last = half(last);
    }
    return last === 0 ? [leftOnly, everything] : null;
  }

  /* Whether `proof` puts the leaf with this hash at `index` of the tree of `size` leaves whose
     root is `root` (RFC 9162 2.1.3.2). */
  async function verifyInclusion(hashedLeaf, index, size, proof, rootHash) {
    if (!isCount(index) || !isCount(size) || !isHash(hashedLeaf) || !isHash(rootHash)) {
      return false;
    }
    if (index >= size || !Array.isArray(proof) || !proof.every(isHash)) return false;
    const climbed = await climb(index, size - 1, hashedLeaf, proof);
    return climbed !== null && sameBytes(climbed[1], rootHash);
  }

  /* Whether `proof` shows the tree of `oldSize` leaves with root `oldRoot` is a prefix of the
     tree of `size` leaves with root `rootHash` (RFC 9162 2.1.4.2). Equal sizes take an empty
     proof and equal roots; an old size of 0 is refused. */
  async function verifyConsistency(oldSize, size, oldRoot, rootHash, proof) {
    if (!isCount(oldSize) || !isCount(size) || !isHash(oldRoot) || !isHash(rootHash)) {
      return false;
    }
    if (!(oldSize > 0 && oldSize <= size) || !Array.isArray(proof) || !proof.every(isHash)) {
      return false;
    }
    if (oldSize === size) return proof.length === 0 && sameBytes(oldRoot, rootHash);
    if (proof.length === 0) return false;
    const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
    let node = oldSize - 1;
    let last = size - 1;
    while (isOdd(node)) {
      node = half(node);
      last = half(last);
    }
    const climbed = await climb(node, last, path[0], path.slice(1));
    return climbed !== null && sameBytes(climbed[0], oldRoot) && sameBytes(climbed[1], rootHash);
  }

  // ------------------------------------------------------------------ Ed25519

  const P = 2n ** 255n - 19n;
  const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;
  const mod = (number) => ((number % P) + P) % P;

  function power(base, exponent) {
    let result = 1n;
    base = mod(base);
    while (exponent > 0n) {
      if (exponent & 1n) result = (result * base) % P;
      base = (base * base) % P;
      exponent >>= 1n;
    }
    return result;
  }

  const D = mod(-121665n * power(121666n, P - 2n));
  const SQRT_MINUS_ONE = power(2n, (P - 1n) / 4n);

  function littleEndian(bytes) {
    let number = 0n;
    for (let i = bytes.length - 1; i >= 0; i--) number = (number << 8n) | BigInt(bytes[i]);
    return number;
  }

  /* The point [x, y] a 32-byte encoding names, or null (RFC 8032 section 5.1.3). */
  function decodePoint(encoded) {
    const number = littleEndian(encoded);
    const y = number & ((1n << 255n) - 1n);
    const sign = number >> 255n;
    if (y >= P) return null;
    const u = mod(y * y - 1n);
    const v = mod(D * y * y + 1n);
    const v3 = (v * v * v) % P;
    let x = (u * v3 * power((u * v3 * v3 * v) % P, (P - 5n) / 8n)) % P;
    const check = (v * x * x) % P;
    if (check === mod(-u)) x = (x * SQRT_MINUS_ONE) % P;
    else if (check !== u) return null;
    if (x === 0n && sign === 1n) return null;
    if ((x & 1n) !== sign) x = P - x;
    return [x, y];
  }

  /* The sum of two points in extended coordinates (RFC 8032 section 5.1.4). */
  function addPoints([x1, y1, z1, t1], [x2, y2, z2, t2]) {
    const a = mod((y1 - x1) * (y2 - x2));
    const b = mod((y1 + x1) * (y2 + x2));
    const c = mod(2n * D * t1 * t2);
    const d = mod(2n * z1 * z2);
    const [e, f, g, h] = [b - a, d - c, d + c, b + a];
    return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
  }

  /* Whether `publicKey` can serve as a season key: 32 bytes naming a curve point outside the
     eight of small order (as ed25519.valid_public_key). */
  function validPublicKey(publicKey) {
    if (!isBytes(publicKey) || publicKey.length !== 32) return false;
    const point = decodePoint(publicKey);
    if (point === null) return false;
    let multiple = [point[0], point[1], 1n, mod(point[0] * point[1])];
    for (let i = 0; i < 3; i++) multiple = addPoints(multiple, multiple);
    return multiple[0] !== 0n;
  }

  const SPKI_PREFIX = bytesFromHex("302a300506032b6570032100");

  /* Whether `signature` is the Ed25519 signature of `message` under `publicKey` (RFC 8032
     section 5.1.7, cofactorless as OpenSSL and BoringSSL check it). Malformed input: false.
     A key is decoded here first: the libraries would reduce a non-canonical one. */
  async function verifyEd25519(publicKey, message, signature) {
    if (!isBytes(publicKey) || !isBytes(message) || !isBytes(signature)) return false;
    if (publicKey.length !== 32 || signature.length !== 64) return false;
    if (littleEndian(signature.subarray(32)) >= GROUP_ORDER) return false;
    if (decodePoint(publicKey) === null) return false;
    if (inNode) {
      const nodeCrypto = require("node:crypto");
      const der = new Uint8Array(SPKI_PREFIX.length + 32);
      der.set(SPKI_PREFIX);
      der.set(publicKey, SPKI_PREFIX.length);
      const spki = { key: Buffer.from(der), format: "der", type: "spki" };
      return nodeCrypto.verify(null, message, nodeCrypto.createPublicKey(spki), signature);
    }
    const key = await ed25519Key(publicKey);
    return root.crypto.subtle.verify({ name: "Ed25519" }, key, signature, message);
  }

  /* The key as Web Crypto holds it. A browser without Ed25519 (or a page outside a secure
     context, which has no Web Crypto at all) is an error, never a signature that fails. */
  async function ed25519Key(publicKey) {
    const subtle = root.crypto && root.crypto.subtle;
    if (!subtle) {
      throw new Error("Web Crypto is missing here: open the page over https or from localhost");
    }
    try {
      return await subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
    } catch (error) {
      throw new Error(`this browser cannot check Ed25519 signatures (${error && error.name})`);
    }
  }

  const api = {
    EMPTY_ROOT_HEX,
    HASH_BYTES,
    bytesFromHex,
    hashesFromHex,
    hexOf,
    inclusionRanges,
    leafHash,
    nodeHash,
    treeHash,
    validPublicKey,
    verifyConsistency,
    verifyEd25519,
    verifyInclusion,
  };
  root.FairfightSeasonLog = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
