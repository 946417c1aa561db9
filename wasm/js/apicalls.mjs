// Runs the loaders' API calls given as JSON lines, for Go tests that give
// them endpoints to ask (host/wasmrt's TestLoaderEID).
//
//   node apicalls.mjs --wasm didlight.wasm --in calls.jsonl --out outcomes.jsonl
//
// Each line of the input is {"call", "args"}: a function of the loaded API
// (resolveVerified, resolveCredentialVerified, ...) and its arguments. Each
// line of the output is the array of its outcomes, one per loader (Node,
// then the browser loader): {"result": …} or {"error": {name, message,
// type, rule, index, code}}.

import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { load } from './node.js';
import { load as loadBrowser } from './browser.js';

const { values: opts } = parseArgs({
  options: { wasm: { type: 'string' }, in: { type: 'string' }, out: { type: 'string' } },
});
if (!opts.wasm || !opts.in || !opts.out) throw new Error('usage: node apicalls.mjs --wasm FILE --in FILE --out FILE');

const wasm = await WebAssembly.compile(await readFile(opts.wasm));
const loaders = [await load({ wasm }), await loadBrowser({ wasm })];
const out = [];
for (const line of (await readFile(opts.in, 'utf8')).split('\n')) {
  if (line === '') continue;
  const { call, args } = JSON.parse(line);
  const outcomes = [];
  for (const l of loaders) {
    try {
      outcomes.push({ result: await l[call](...args) });
    } catch (e) {
      const { name, message, type, rule, index, code } = e;
      outcomes.push({ error: { name, message, type, rule, index, code } });
    }
  }
  out.push(JSON.stringify(outcomes));
}
await writeFile(opts.out, out.join('\n') + '\n');
