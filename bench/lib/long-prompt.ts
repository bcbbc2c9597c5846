/**
 * The CPU benches' prompt: prompt-like English in numbered lines, `chars` long (2,600 ≈ 1,075
 * tokens of the fixture vocabulary, which the shaped models share). One builder for the page and
 * for native llama.cpp, so both read the same text.
 */
export function longSystem(seed: string, chars = 2600): string {
  const lines: string[] = [`${seed}: You are Loci, a private companion with memory.`];
  for (let i = 0; lines.join('\n').length < chars; i += 1) {
    lines.push(`- Memory ${i}: the user has a sister who lives in Lisbon and likes green tea.`);
  }
  return lines.join('\n');
}
