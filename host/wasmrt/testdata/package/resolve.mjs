// Resolves DIDs as a user of the packed didlight package would: through
// the published did-resolver's Resolver and Veramo's DIDResolverPlugin.
//
//   node resolve.mjs cases.json results.json
//
// cases: [{endpoint, did}]; results: [{resolver, veramo}], each the
// DIDResolutionResult that resolver answered.

import { readFile, writeFile } from 'node:fs/promises';
import { Resolver } from 'did-resolver';
import { DIDResolverPlugin } from '@veramo/did-resolver';
import { getResolver } from 'didlight';

const [inFile, outFile] = process.argv.slice(2);
const cases = JSON.parse(await readFile(inFile, 'utf8'));
const byEndpoint = new Map();
const out = [];
for (const { endpoint, did } of cases) {
  if (!byEndpoint.has(endpoint)) {
    const method = getResolver({ endpoint });
    byEndpoint.set(endpoint, { resolver: new Resolver(method), veramo: new DIDResolverPlugin({ ...method }) });
  }
  const { resolver, veramo } = byEndpoint.get(endpoint);
  out.push({ resolver: await resolver.resolve(did), veramo: await veramo.resolveDid({ didUrl: did }) });
}
await writeFile(outFile, JSON.stringify(out));
