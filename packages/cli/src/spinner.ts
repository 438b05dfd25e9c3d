/** Where terminal output goes: a stream, a TTY when `isTTY` is true. */
export type Output = NodeJS.WritableStream & { isTTY?: boolean };

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A one-line terminal spinner; does nothing when the output is not a terminal. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  constructor(private readonly out: Output = process.stdout) {}

  /** Show the spinner with a label until {@link stop}. */
  start(label: string): void {
    if (!this.out.isTTY || this.timer) return;
    this.timer = setInterval(() => {
      this.out.write(`\r${FRAMES[this.frame++ % FRAMES.length]} ${label}`);
    }, 80);
    this.timer.unref();
  }

  /** Hide the spinner and clear its line. */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.out.write('\r\x1b[2K');
  }
}
