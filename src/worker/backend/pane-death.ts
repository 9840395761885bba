// Pane death as an event: a tmux `pane-died` hook drops a marker file that the worker watches, so no poll is needed.
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { quoteTmuxArg } from './tmux-control.js';
import { escapeTmuxFormat } from './tmux-client.js';
import { quoteShellArg } from '../../shared/shell-quote.js';
import type { Disposable } from './types.js';

/**
 * Why a hook and a file: with remain-on-exit the pane's pipe stays open when its process dies (tmux 3.3a keeps
 * `pane_pipe` at 1 and refuses `pipe-pane` on a dead pane), no output is written, and control mode has no
 * pane-exited notification. A pane-scoped `pane-died` hook costs nothing until it fires; `run-shell -b` writes the
 * marker from the server, and inotify (fs.watch on the run directory) wakes the worker. Linux inotify; elsewhere
 * fs.watch degrades to the platform's watcher and the monitor's slow safety probe still notices.
 */
export function paneDiedHookCommand(paneTarget: string, markerPath: string): string[] {
  // The hook's command is parsed by tmux (quoteTmuxArg) and run-shell's argument is format-expanded (##) and run by
  // /bin/sh (quoteShellArg): LARKMUX_HOME may hold any character.
  const shell = escapeTmuxFormat(`echo died > ${quoteShellArg(markerPath)}`);
  const quoted = quoteTmuxArg(shell);
  if (quoted === null) throw new Error('the marker path holds a line break');
  return ['set-hook', '-p', '-t', paneTarget, 'pane-died', `run-shell -b ${quoted}`];
}

/** Watches for the marker; `onDied` runs each time it is (re)written. Removes a stale marker first. */
export async function watchPaneDeath(markerPath: string, onDied: () => void): Promise<Disposable> {
  const dir = dirname(markerPath);
  const name = basename(markerPath);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await unlink(markerPath).catch(() => undefined);
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, { persistent: false }, (_event, file) => {
      if (file === null || file === name) onDied();
    });
    watcher.on('error', () => { watcher?.close(); watcher = null; });
  } catch {
    watcher = null; // no watcher here: the monitor's safety probe is the fallback
  }
  return {
    dispose: () => {
      watcher?.close();
      watcher = null;
      void unlink(markerPath).catch(() => undefined);
    },
  };
}
