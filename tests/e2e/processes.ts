/** Child processes as the PDF e2e tests read them, with `ps` (Deno reads /proc only with every permission). */

/** Pids of the live direct children of `pid`. */
export async function children(pid: number): Promise<number[]> {
  const { stdout } = await new Deno.Command("ps", { args: ["-o", "pid=,stat=", "--ppid", String(pid)] }).output();
  return new TextDecoder().decode(stdout).trim().split("\n").filter((line) => line && !/\sZ/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** Whether `pid` is running (a zombie is not). */
export async function alive(pid: number): Promise<boolean> {
  const { stdout } = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).output();
  const stat = new TextDecoder().decode(stdout).trim();
  return stat !== "" && !stat.startsWith("Z");
}

/** Polls until `pid` is gone; false if it is still alive after `ms` (a generous bound, not a timing). */
export async function gone(pid: number, ms = 60_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (await alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
