/**
 * One search and 20 reads on a 10,000-message Dovecot mailbox, through the
 * server over an in-memory MCP connection and through imapflow used
 * directly (the floor), in one run, against the same Dovecot. The floor does
 * the least a program needs for the same answers: EXAMINE once, the same
 * SEARCH, one FETCH of the hits' envelopes, flags, sizes and structures,
 * then each message's source fetched with BODY.PEEK and parsed by
 * mailparser. The server does that plus its snippets, fences and caps.
 * Reports the median and p90 per round and the ratio server ÷ floor.
 *
 *   pnpm --filter @toolshed/server-email bench
 */
import { connectBareClient } from '@toolshed/mcp-core/testing';
import { simpleParser } from 'mailparser';
import { imapOptions, startDovecot } from '../src/__fixtures__/dovecot-server.ts';
import { directImapClient } from '../src/__fixtures__/mailbox-snapshot.ts';
import { createEmailServer } from '../src/index.ts';
import { benchSender, fillBenchMailbox } from './bench-mailbox.ts';

const messageCount = Number(process.env.BENCH_MESSAGES ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 60);
const reads = 20;

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

const dovecot = await startDovecot();
try {
  fillBenchMailbox(dovecot, messageCount);

  const direct = await directImapClient(dovecot);
  await direct.mailboxOpen('INBOX', { readOnly: true });
  const floor = async (from: string): Promise<number> => {
    const found = (await direct.search({ from }, { uid: true })) || [];
    const chosen = [...found].sort((left, right) => right - left).slice(0, reads);
    for await (const _message of direct.fetch(
      chosen,
      { uid: true, flags: true, envelope: true, internalDate: true, size: true, bodyStructure: true },
      { uid: true },
    )) {
      // Consumed, as a program would.
    }
    let characters = 0;
    for (const uid of chosen) {
      const message = await direct.fetchOne(
        String(uid),
        { uid: true, flags: true, size: true, source: true },
        { uid: true },
      );
      if (message === false || message.source === undefined) throw new Error(`uid ${uid} missing`);
      characters += (await simpleParser(message.source)).text?.length ?? 0;
    }
    return characters;
  };

  const server = createEmailServer({ outboxDirectory: `${dovecot.maildir}/../outbox`, imap: imapOptions(dovecot) });
  const client = await connectBareClient(server);
  const throughServer = async (from: string): Promise<number> => {
    const search = await client.callTool('search_messages', { from, limit: reads });
    const hits = (search.structuredContent as { messages: { uid: number }[] }).messages;
    let characters = 0;
    for (const hit of hits) {
      const read = await client.callTool('read_message', { uid: hit.uid });
      characters += String((read.structuredContent as { body: string }).body).length;
    }
    return characters;
  };

  const sender = benchSender;
  // The first search builds Dovecot's caches; both sides then run warm, in turn, so neither always runs first.
  await floor(sender(0));
  await throughServer(sender(0));
  const floorSamples: number[] = [];
  const serverSamples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [samples, run] of round % 2 === 0
      ? ([
          [floorSamples, floor],
          [serverSamples, throughServer],
        ] as const)
      : ([
          [serverSamples, throughServer],
          [floorSamples, floor],
        ] as const)) {
      const started = performance.now();
      await run(sender(round));
      samples.push(performance.now() - started);
    }
  }
  await server.close();
  await direct.logout();

  const floorMedian = percentile(floorSamples, 0.5);
  const serverMedian = percentile(serverSamples, 0.5);
  console.log(
    `node ${process.version}, Dovecot ${messageCount.toLocaleString('en')} messages in INBOX, ${rounds} rounds of 1 search + ${reads} reads`,
  );
  console.log('');
  console.log('| | p50 ms | p90 ms |');
  console.log('| --- | ---: | ---: |');
  console.log(
    `| imapflow used directly (floor) | ${floorMedian.toFixed(1)} | ${percentile(floorSamples, 0.9).toFixed(1)} |`,
  );
  console.log(`| toolshed-email | ${serverMedian.toFixed(1)} | ${percentile(serverSamples, 0.9).toFixed(1)} |`);
  console.log('');
  console.log(`server ÷ floor (p50): ${(serverMedian / floorMedian).toFixed(2)}×`);
} finally {
  await dovecot.stop();
}
