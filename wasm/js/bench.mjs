// Benchmark: verify a resolve result (by default a 10-operation history)
// through the JS loaders, and optionally through a second implementation.
//
//   node bench.mjs [--wasm didlight.wasm] [--history result.json] [--ops 10] [--seconds 3] [impl.mjs]
//
// impl.mjs, when given, exports `async function setup()` returning
// `async (resultText, nowISO) => void`, which must throw when the result
// does not verify; it is timed on the same history (the hook for the
// official SDK's own verification).
//
//   node bench.mjs --serve [--no-host-crypto] [--wasm …] --history result.json
//
// serves host/wasmrt's Go benchmark: it answers each line read on stdin
// with one verification and a line "ok <CPU nanoseconds it took>" (or
// "error: …").

import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { load } from './node.js';
import { load as loadBrowser } from './browser.js';
import { history, start } from './test/history.js';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    wasm: { type: 'string', default: new URL('./didlight.wasm', import.meta.url).pathname },
    history: { type: 'string' },
    ops: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '3' },
    serve: { type: 'boolean', default: false },
    'no-host-crypto': { type: 'boolean', default: false },
  },
});

const wasm = await WebAssembly.compile(await readFile(opts.wasm));
const [resultText, now] = await input();

if (opts.serve) {
  const didlight = await load({ wasm, hostCrypto: !opts['no-host-crypto'] });
  await didlight.verifyResolveResult(resultText, { now }); // fail before the first line if it does not verify
  process.stdout.write('ready\n');
  for await (const _ of createInterface({ input: process.stdin })) {
    try {
      const before = process.cpuUsage();
      await didlight.verifyResolveResult(resultText, { now });
      const used = process.cpuUsage(before);
      process.stdout.write(`ok ${(used.user + used.system) * 1000}\n`);
    } catch (e) {
      process.stdout.write(`error: ${e.message}\n`);
    }
  }
} else {
  const impls = [
    ['node loader, node:crypto', () => verifier(load({ wasm }))],
    ['node loader, module crypto', () => verifier(load({ wasm, hostCrypto: false }))],
    ['browser loader (shim), module crypto', () => verifier(loadBrowser({ wasm }))],
  ];
  for (const path of positionals) {
    const impl = await import(new URL(path, `file://${process.cwd()}/`));
    impls.push([path, impl.setup]);
  }
  console.log(`verify a resolve result of ${JSON.parse(resultText).transaction.length} operations, ${opts.seconds}s each`);
  let first;
  for (const [name, setup] of impls) {
    const ns = await measure(await setup(), Number(opts.seconds) * 1e9);
    first ??= ns;
    console.log(`${name.padEnd(40)} ${(ns / 1e6).toFixed(3).padStart(10)} ms/op  ${(ns / first).toFixed(2).padStart(6)}×`);
  }
}

// input returns the result to verify (as text) and the reference time.
async function input() {
  if (opts.history) {
    const text = await readFile(opts.history, 'utf8');
    const newest = JSON.parse(text).transaction?.[0]?.timestamp;
    return [text, newest ?? new Date(start).toISOString()];
  }
  const result = await history(await load({ wasm }), Number(opts.ops));
  return [JSON.stringify(result), result.transaction[0].timestamp];
}

// verifier returns the verification of a loaded module.
async function verifier(loading) {
  const didlight = await loading;
  return async (text, now) => {
    await didlight.verifyResolveResult(text, { now });
  };
}

// measure runs verify until the time is up (after a warm-up) and returns
// nanoseconds per verification.
async function measure(verify, budget) {
  const run = async (n) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await verify(resultText, now);
    return Number(process.hrtime.bigint() - t0);
  };
  let n = 1;
  let elapsed = await run(n); // warm-up
  while (elapsed < budget / 10) {
    n *= 2;
    elapsed = await run(n);
  }
  n = Math.max(1, Math.round((n * budget) / elapsed));
  return (await run(n)) / n;
}
