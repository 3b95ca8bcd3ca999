// Runs tlock-js (from the repository's node_modules) against one recorded beacon, no network:
//   node tlock_js.cjs encrypt|decrypt NETWORK_JSON ROUND SIGNATURE_HEX  (payload on stdin)
// prints the armored ciphertext (encrypt) or the plaintext in hex (decrypt).
"use strict";
const crypto = require("crypto");
const tlock = require("tlock-js");

const [mode, networkJson, round, signature] = process.argv.slice(2);
const network = JSON.parse(networkJson);
const info = {
    public_key: network.public_key,
    period: network.period,
    genesis_time: network.genesis_time,
    hash: network.chain_hash,
    groupHash: network.chain_hash,
    schemeID: "bls-unchained-g1-rfc9380",
    metadata: {beaconID: network.name},
};
const beacon = {
    round: Number(round),
    randomness: crypto.createHash("sha256").update(Buffer.from(signature, "hex")).digest("hex"),
    signature: signature,
};
const client = {
    options: {disableBeaconVerification: false, noCache: false},
    get: async () => beacon,
    latest: async () => beacon,
    chain: () => ({baseUrl: "", info: async () => info}),
};

async function main() {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const input = Buffer.concat(chunks);
    if (mode === "encrypt") {
        process.stdout.write(await tlock.timelockEncrypt(Number(round), input, client));
    } else {
        const log = console.log;
        console.log = () => {};  // tlock-js logs the beacon it fetched
        const plain = await tlock.timelockDecrypt(input.toString("utf8"), client);
        console.log = log;
        process.stdout.write(Buffer.from(plain).toString("hex"));
    }
}
main().catch((error) => { process.stderr.write(String(error) + "\n"); process.exit(1); });
