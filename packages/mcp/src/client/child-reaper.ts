/**
 * Keeps the pids of the stdio servers this process started, and kills those still alive when the
 * process exits (even through `process.exit`), so a child never outlives its parent. One `exit`
 * listener for the whole process, added with the first child.
 */
const livePids = new Set<number>();
let installed = false;

function killAll(): void {
  for (const pid of livePids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  livePids.clear();
}

/** Track a child until {@link forgetChild}. */
export function trackChild(pid: number): void {
  if (!installed) {
    installed = true;
    process.once('exit', killAll);
  }
  livePids.add(pid);
}

/** Stop tracking a child that has exited or was closed. */
export function forgetChild(pid: number): void {
  livePids.delete(pid);
}
