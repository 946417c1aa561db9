// The didlight loader for Node: the module under node:wasi, with
// node:crypto verifying signatures and hashing for it.
//
//   import { load } from 'didlight';
//   const didlight = await load();
//   const v = await didlight.verifyResolveResult(resultJSON);

import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { bind, hostImports } from './api.js';
import { hostCrypto as nodeCrypto } from './p256.js';
import { resolverFor } from './resolver.js';

export { DidlightError, EndpointError } from './api.js';
export { networks } from './resolver.js';

/**
 * load instantiates the module and returns its API (see api.js).
 * Options: wasm, the module (a path or URL, bytes, or a compiled
 * WebAssembly.Module; default didlight.wasm beside this file); hostCrypto,
 * false to let the module verify signatures and hash with its own code;
 * lookup(did), which returns the current document of a DID (object or JSON
 * text) or null, for controllers' documents that an input does not list.
 */
export async function load({ wasm = new URL('./didlight.wasm', import.meta.url), hostCrypto = true, lookup } = {}) {
  const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(await bytes(wasm));
  const wasi = new WASI({ version: 'preview1', args: [], env: {}, returnOnExit: true });
  let memory;
  const { verify, sha256 } = hostCrypto ? nodeCrypto() : {};
  const instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: wasi.wasiImport,
    didlight: hostImports(() => memory, { verify, sha256, lookup }),
  });
  memory = instance.exports.memory;
  wasi.initialize(instance);
  return bind(instance);
}

/** getResolver returns the did:elastos method for did-resolver (see resolver.js), loading the module on its first resolve. */
export const getResolver = resolverFor(load);

async function bytes(wasm) {
  if (wasm instanceof URL || typeof wasm === 'string') return readFile(wasm);
  return wasm;
}
