/**
 * Counts found/asked per figure and per category and turns them into recall fractions — the
 * numbers of the eval JSON and of the in-app memory check. A figure is a free-form key such as
 * `retrieval.hybrid.any@10` or `context.memgpt.3000.all`.
 */
export interface TallyCell {
  found: number;
  asked: number;
}

/** A fraction rounded to 4 places; 0 when nothing was asked. */
export function recallOf(cell: TallyCell | undefined): number {
  if (!cell || cell.asked === 0) return 0;
  return Math.round((cell.found / cell.asked) * 10_000) / 10_000;
}

export class RecallTally {
  private readonly cells = new Map<string, Map<string, TallyCell>>();

  /** Records one question's outcome for `figure` under `category` (and under `all`). */
  add(figure: string, category: string, found: boolean): void {
    for (const group of ['all', category]) {
      let byFigure = this.cells.get(group);
      if (!byFigure) {
        byFigure = new Map();
        this.cells.set(group, byFigure);
      }
      const cell = byFigure.get(figure) ?? { found: 0, asked: 0 };
      cell.asked += 1;
      if (found) cell.found += 1;
      byFigure.set(figure, cell);
    }
  }

  /** Recall of `figure` over every question, or one category's. */
  recall(figure: string, category = 'all'): number {
    return recallOf(this.cells.get(category)?.get(figure));
  }

  cell(figure: string, category = 'all'): TallyCell {
    return this.cells.get(category)?.get(figure) ?? { found: 0, asked: 0 };
  }

  /** Categories seen, `all` excluded, sorted. */
  categories(): string[] {
    return [...this.cells.keys()].filter((c) => c !== 'all').sort();
  }

  /** Figures seen, in first-seen order. */
  figures(): string[] {
    return [...(this.cells.get('all')?.keys() ?? [])];
  }
}
