/**
 * Progress of long CLI calls, on stderr: a redrawn bar on a terminal, plain lines otherwise (logs, CI).
 * Fed by the same `notifications/progress` a tool sends to MCP clients.
 */
export interface ProgressParams {
  progress: number;
  total?: number;
  message?: string;
}

export interface ProgressReporter {
  update(params: ProgressParams): void;
  /** Ends the bar line (only if one was drawn). */
  done(): void;
}

const WIDTH = 24;

export function progressReporter(write: (text: string) => void, terminal: boolean): ProgressReporter {
  let drawn = false;
  return {
    update({ progress, total, message }) {
      const note = message ? ` ${message}` : "";
      if (!terminal) {
        write(`progress ${progress}${total === undefined ? "" : `/${total}`}${note}\n`);
        return;
      }
      let line: string;
      if (total && total > 0) {
        const ratio = Math.min(1, Math.max(0, progress / total));
        const filled = Math.round(ratio * WIDTH);
        line = `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${Math.round(ratio * 100)}%${note}`;
      } else {
        line = `[${progress}]${note}`;
      }
      write(`\r\x1b[2K${line}`);
      drawn = true;
    },
    done() {
      if (drawn) write("\n");
      drawn = false;
    },
  };
}
