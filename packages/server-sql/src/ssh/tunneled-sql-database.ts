import { ToolError } from '@toolshed/mcp-core';
import type { SqlDatabase, SqlEngineKind, SqlOutcome } from '../sql-engine.ts';
import type { SshTunnel, TunnelEndpoint } from './ssh-tunnel.ts';

/** The promise, unless the call is cancelled first: a bastion that does not answer must not hold a cancelled call. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A network database reached through an SSH tunnel. Nothing connects at
 * start, so a bastion that is down or unreachable neither stops nor holds up
 * the server; the engine loads and the tunnel opens on the first call. Each
 * call first makes sure the tunnel is up (opening it again after a drop), and
 * one that cannot be opened fails the call with the bastion and the reason.
 * A call that failed because the tunnel dropped under it runs once more
 * through a new one: every call is read-only, so running it again is safe.
 * The role check that `start` does elsewhere runs on the first connection,
 * and refuses every call when the role is privileged.
 */
export function tunneledSqlDatabase(
  name: string,
  engine: SqlEngineKind,
  tunnel: SshTunnel,
  load: (through: TunnelEndpoint) => Promise<SqlDatabase>,
): SqlDatabase {
  let loading: Promise<SqlDatabase> | undefined;
  const unreachable = (reason: string) =>
    new ToolError(`The database "${name}" cannot be reached: ${reason}. Try again later, or tell the operator.`);
  const runOnce: SqlDatabase['run'] = async (request, call) => {
    call.signal.throwIfAborted();
    try {
      await untilAborted(tunnel.ready(), call.signal);
    } catch (error) {
      if (call.signal.aborted) throw call.signal.reason;
      throw unreachable((error as Error).message);
    }
    loading ??= tunnel.listen().then(load);
    return (await loading).run(request, call);
  };
  return {
    name,
    engine,
    async run(request, call) {
      for (let attempt = 0; ; attempt++) {
        const drops = tunnel.drops;
        const forwardFailures = tunnel.forwardFailure.count;
        let outcome: SqlOutcome;
        try {
          outcome = await runOnce(request, call);
        } catch (error) {
          // The driver saw its connection closed; the tunnel knows why.
          if (tunnel.forwardFailure.count !== forwardFailures) throw unreachable(tunnel.forwardFailure.reason);
          if (tunnel.drops === drops || call.signal.aborted) throw error;
          if (attempt === 0) continue;
          throw unreachable(`the SSH connection to the bastion ${tunnel.bastion} dropped during the call`);
        }
        if (outcome.ok || tunnel.drops === drops || call.signal.aborted) return outcome;
        if (attempt === 0) continue;
        throw unreachable(`the SSH connection to the bastion ${tunnel.bastion} dropped during the call`);
      }
    },
    async close() {
      await Promise.all([loading?.then((database) => database.close()), tunnel.close()]);
    },
  };
}
