// A TypeScript user of the packed didlight package, type-checked by
// host/wasmrt's TestPackage with tsc --noEmit against the published
// did-resolver's types.

import { Resolver, type DIDResolutionResult } from 'did-resolver';
import { getResolver, load, networks, DidlightError, EndpointError, type Didlight, type ElastosResolutionResult } from 'didlight';

const resolver = new Resolver({ ...getResolver({ endpoint: 'testnet', cacheSize: 16, headTtl: 1000 }) });
const result: DIDResolutionResult = await resolver.resolve('did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y;no-cache=true');
const mine = result as ElastosResolutionResult;
const verification = mine.didResolutionMetadata.verification;
const trusted: string[] | undefined = verification?.trusted;
const endpoint: string = networks.mainnet.endpoint;

const didlight: Didlight = await load({ hostCrypto: false });
const parsed: { did: string; id: string; customized: boolean } = await didlight.parseDid('did:elastos:foobar');
try {
  const v = await didlight.resolveVerified(parsed.did, { endpoint, timeout: 1000 });
  const status: 0 | 2 | 3 = v.status;
  const w3c = await didlight.resolveW3C(v.answer, parsed.did, { accept: 'application/did+json', options: { versionTime: '2026-01-01T00:00:00Z' } });
  console.log(status, w3c.status, v.report.checked, trusted);
} catch (e) {
  if (e instanceof DidlightError) console.log(e.rule, e.index);
  else if (e instanceof EndpointError) console.log(e.url, e.code);
}
const answer = await didlight.verifyResolveResult('{"did":"did:elastos:foobar","status":3}', { now: new Date() });
console.log(answer.complete);
