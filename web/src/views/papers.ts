/**
 * The papers the lab implements, named the way students should see them
 * (title and authors), never by the project's internal file numbers.
 */
export interface Paper {
  title: string;
  authors: string;
  venue?: string;
}

export const PAPERS = {
  earlyScheduling: {
    title: 'Early Scheduling in Parallel State Machine Replication',
    authors: 'Alchieri, Dotti and Pedone',
  },
  steroids: {
    title: 'Early Scheduling on Steroids: Boosting Parallel State Machine Replication',
    authors: 'Batista, Alchieri, Dotti and Pedone',
  },
  generalizedConsensus: {
    title: 'Parallel State Machine Replication from Generalized Consensus',
    authors: 'Ceolin Junior, Dotti and Pedone',
  },
  repartitioning: {
    title: 'Lightweight Asynchronous Repartitioning for Local State Partitioned Systems',
    authors: 'Luiz and Mendizabal',
  },
  eventWorkstealing: {
    title: 'Efficient Workstealing for Multicore Event-Driven Systems',
    authors: 'Gaud, Genevès, Lachaize, Lepers, Mottet, Muller and Quéma',
    venue: 'ICDCS 2010',
  },
} as const satisfies Record<string, Paper>;

/** "Title (Authors)". */
export function cite(p: Paper): string {
  return `${p.title} (${p.authors})`;
}
