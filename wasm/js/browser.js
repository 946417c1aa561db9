// The didlight loader for browsers: the module under
// @bjorn3/browser_wasi_shim. WebCrypto verifies only asynchronously and a
// module call is synchronous, so the module verifies signatures with its
// own Go code here.
//
//   import { load } from './browser.js';
//   const didlight = await load();
//   const v = await didlight.verifyResolveResult(await response.text());

import { WASI, OpenFile, File, ConsoleStdout } from '@bjorn3/browser_wasi_shim';
import { bind, hostImports } from './api.js';
import { resolverFor } from './resolver.js';

export { DidlightError, EndpointError } from './api.js';
export { networks } from './resolver.js';

/**
 * load instantiates the module and returns its API (see api.js).
 * Options: wasm, the module (a URL to fetch, bytes, a Response or a
 * compiled WebAssembly.Module; default didlight.wasm beside this file);
 * lookup(did), as in the Node loader.
 */
export async function load({ wasm = new URL('./didlight.wasm', import.meta.url), lookup } = {}) {
  const wasi = new WASI([], [], [
    new OpenFile(new File([])),
    ConsoleStdout.lineBuffered((line) => console.log(line)),
    ConsoleStdout.lineBuffered((line) => console.warn(line)),
  ], { debug: false });
  let memory;
  const imports = {
    wasi_snapshot_preview1: wasi.wasiImport,
    didlight: hostImports(() => memory, { lookup }),
  };
  const instance = await instantiate(wasm, imports);
  memory = instance.exports.memory;
  wasi.initialize(instance);
  return bind(instance);
}

/** getResolver returns the did:elastos method for did-resolver (see resolver.js), loading the module on its first resolve. */
export const getResolver = resolverFor(load);

async function instantiate(wasm, imports) {
  if (wasm instanceof WebAssembly.Module) return WebAssembly.instantiate(wasm, imports);
  if (wasm instanceof URL || typeof wasm === 'string') wasm = await fetch(wasm);
  if (typeof Response !== 'undefined' && wasm instanceof Response) {
    return (await WebAssembly.instantiate(await wasm.arrayBuffer(), imports)).instance;
  }
  return (await WebAssembly.instantiate(wasm, imports)).instance;
}
