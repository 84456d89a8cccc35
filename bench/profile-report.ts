/** Prints where a CPU profile (Bun's `--cpu-prof`) spent its time: self time, then inclusive. */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const file = url.split("/").pop() || url || "native";
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
}

export function report(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const selfByLabel = new Map<string, number>();
  const inclusiveByLabel = new Map<string, number>();
  for (const [id, time] of self) {
    selfByLabel.set(label(byId.get(id)!), (selfByLabel.get(label(byId.get(id)!)) ?? 0) + time);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusiveByLabel.set(name, (inclusiveByLabel.get(name) ?? 0) + time);
    }
  }
  const print = (title: string, map: Map<string, number>, count: number) => {
    console.log(`\n${title}`);
    for (const [name, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      const ms = (time / 1000).toFixed(0).padStart(7);
      console.log(`${((100 * time) / total).toFixed(1).padStart(6)} %  ${ms} ms  ${name}`);
    }
  };
  print("self time", selfByLabel, 45);
  print("inclusive time", inclusiveByLabel, 45);
}
