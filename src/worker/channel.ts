// The worker's one wire to the daemon: parses every inbound message, sends typed outbound ones.
import { parseDaemonToWorker, type DaemonToWorker, type WorkerToDaemon } from '../shared/ipc.js';

export interface DaemonChannel {
  send(msg: WorkerToDaemon): void;
  onMessage(handler: (msg: DaemonToWorker) => void): void;
  onInvalid(handler: (reason: string) => void): void;
  onDisconnect(handler: () => void): void;
}

/** The channel over Node's fork IPC (`process.send`), which the daemon opens with advanced serialization. */
export function processChannel(proc: NodeJS.Process = process): DaemonChannel {
  if (!proc.send) throw new Error('the worker must be started by the daemon (no IPC channel)');
  let onInvalid: (reason: string) => void = () => undefined;
  return {
    send(msg) {
      if (proc.connected) proc.send?.(msg);
    },
    onMessage(handler) {
      proc.on('message', (raw: unknown) => {
        const parsed = parseDaemonToWorker(raw);
        if (parsed.ok) handler(parsed.msg);
        else onInvalid(parsed.reason);
      });
    },
    onInvalid(handler) {
      onInvalid = handler;
    },
    onDisconnect(handler) {
      proc.on('disconnect', handler);
    },
  };
}
