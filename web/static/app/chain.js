// The chain view: the tip, the latest blocks, a block's transactions and a
// transaction by hash, from the node's REST API.

import { h, replace, code, table, link, time, short, errorBox, focusHeading } from './dom.js';

const latest = 10;

const txTypes = { 0: 'coinbase', 1: 'register asset', 2: 'transfer asset', 10: 'identity operation' };
const typeName = (t) => `${txTypes[t] ?? 'type'} (0x${t.toString(16).padStart(2, '0')})`;

function txForm(value = '') {
  const input = h('input', { id: 'tx-input', type: 'text', value, required: true, pattern: '[0-9a-fA-F]{64}', spellcheck: 'false', autocomplete: 'off', placeholder: '64 hex digits', title: 'a transaction hash: 64 hex digits' });
  return h(
    'form',
    {
      class: 'entry',
      onsubmit: (e) => {
        e.preventDefault();
        location.hash = '#/chain/tx/' + input.value.trim().toLowerCase();
      },
    },
    h('label', { for: 'tx-input' }, 'Transaction'),
    input,
    h('button', { type: 'submit' }, 'Show'),
  );
}

/** render shows the route's part of the chain: the overview, a block or a transaction. */
export async function render(app, out, parts) {
  const body = h('div', { 'aria-live': 'polite' }, h('p', { class: 'loading', role: 'status' }, 'Reading the chain…'));
  replace(out, h('section', { 'aria-labelledby': 'chain-title' }, h('h2', { id: 'chain-title' }, 'Chain'), txForm(parts[0] === 'tx' ? parts[1] : ''), body));
  try {
    if (parts[0] === 'tx') await tx(app, body, parts[1]);
    else if (parts[0] === 'block') await block(app, body, parts[1]);
    else await overview(app, body);
  } catch (e) {
    replace(body, errorBox('The node could not answer', e.message));
  }
  focusHeading(body);
}

async function overview(app, out) {
  const height = await app.node.get('/block/height');
  const heights = Array.from({ length: Math.min(latest, height + 1) }, (_, i) => height - i);
  const blocks = await Promise.all(heights.map((n) => app.node.get(`/block/details/height/${n}`)));
  replace(
    out,
    h('h3', {}, 'Height ', h('span', { class: 'height', 'data-height': height }, String(height))),
    h('p', {}, h('button', { type: 'button', onclick: () => overview(app, out) }, 'Refresh')),
    table(
      `Latest ${blocks.length} blocks`,
      ['Height', 'Hash', 'Time', 'Transactions', 'Size'],
      blocks.map((b) => [link('/chain/block/' + b.height, String(b.height)), short(b.hash), time(b.time), String(b.tx.length), `${b.size} B`]),
      { class: 'blocks' },
    ),
  );
}

async function block(app, out, height) {
  const b = await app.node.get(`/block/details/height/${encodeURIComponent(height)}`);
  replace(
    out,
    h('h3', {}, `Block ${b.height}`),
    h('dl', { class: 'facts' }, h('dt', {}, 'Hash'), h('dd', {}, code(b.hash)), h('dt', {}, 'Previous'), h('dd', {}, b.previousblockhash ? code(b.previousblockhash) : '—'), h('dt', {}, 'Time'), h('dd', {}, time(b.time)), h('dt', {}, 'Confirmations'), h('dd', {}, String(b.confirmations)), h('dt', {}, 'Merkle root'), h('dd', {}, code(b.merkleroot))),
    table('Transactions', ['Txid', 'Type', 'Size'], b.tx.map((t) => [link('/chain/tx/' + t.txid, t.txid, { class: 'mono' }), typeName(t.type), `${t.size} B`]), { class: 'block-txs' }),
  );
}

async function tx(app, out, hash) {
  if (!/^[0-9a-f]{64}$/.test(hash)) {
    replace(out, errorBox('Not a transaction hash', `“${hash}” is not 64 hex digits.`));
    return;
  }
  const t = await app.node.get(`/transaction/${hash}`);
  replace(
    out,
    h('h3', {}, 'Transaction'),
    h(
      'dl',
      { class: 'facts tx', 'data-txid': t.txid },
      h('dt', {}, 'Txid'),
      h('dd', {}, code(t.txid)),
      h('dt', {}, 'Type'),
      h('dd', {}, typeName(t.type)),
      h('dt', {}, 'Block'),
      h('dd', {}, t.blockhash ? code(t.blockhash) : 'none yet: in the mempool'),
      h('dt', {}, 'Time'),
      h('dd', {}, t.blocktime ? time(t.blocktime) : '—'),
      h('dt', {}, 'Confirmations'),
      h('dd', {}, String(t.confirmations)),
      h('dt', {}, 'Size'),
      h('dd', {}, `${t.size} B`),
    ),
    t.vin.length > 0 && table('Inputs', ['Spends', 'Output'], t.vin.map((i) => [link('/chain/tx/' + i.txid, i.txid, { class: 'mono' }), String(i.vout)])),
    t.vout.length > 0 && table('Outputs', ['#', 'Address', 'Value (ELA)'], t.vout.map((o) => [String(o.n), code(o.address), o.value])),
    h('details', { open: t.type === 10 }, h('summary', {}, 'Payload'), h('pre', {}, JSON.stringify(t.payload, null, 2))),
  );
}
