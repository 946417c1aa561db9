// Runs calls of the module through every JS loader, for host/wasmrt's
// TestParityNode, which compares the answers with Go's, byte for byte.
//
//   node parity.mjs --wasm didlight.wasm --in cases.jsonl --out answers.jsonl
//
// Each line of the input is {"call", "input", "documents"}: input is the
// call's JSON input, documents (optional) maps DIDs to the documents the
// host's lookup_document answers with. Each line of the output is the
// array of the answers' texts, one per loader: Node with node:crypto,
// Node with the module's own crypto, and the browser loader (its shim).

import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { load } from './node.js';
import { load as loadBrowser } from './browser.js';

const { values: opts } = parseArgs({
  options: { wasm: { type: 'string' }, in: { type: 'string' }, out: { type: 'string' } },
});
if (!opts.wasm || !opts.in || !opts.out) throw new Error('usage: node parity.mjs --wasm FILE --in FILE --out FILE');

const wasm = await WebAssembly.compile(await readFile(opts.wasm));
let documents = {};
const lookup = (did) => documents[did] ?? documents[did.toLowerCase()] ?? null;
const loaders = [
  await load({ wasm, lookup }),
  await load({ wasm, lookup, hostCrypto: false }),
  await loadBrowser({ wasm, lookup }),
];
const out = [];
for (const line of (await readFile(opts.in, 'utf8')).split('\n')) {
  if (line === '') continue;
  const c = JSON.parse(line);
  documents = c.documents ?? {};
  out.push(JSON.stringify(loaders.map((l) => l.callRaw(c.call, c.input))));
}
await writeFile(opts.out, out.join('\n') + '\n');
