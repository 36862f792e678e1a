/**
 * The workload graph drawn with WebGL (sigma.js over a graphology graph).
 * Loaded lazily by the repartitioning view (`import('./graphCanvas')`), so
 * neither library is in the lab's first load. Keys sit on a ring in key
 * order, so a partition of contiguous key ranges shows as arcs of one color
 * and round-robin placement as a fine stripe pattern.
 */
import Graph from 'graphology';
import Sigma from 'sigma';
import type { GraphView } from './model';

/** Edges drawn at most (the heaviest; the engine sends up to 200,000). */
export const MAX_DRAWN_EDGES = 50_000;

export interface NodeLook {
  color: string;
  size: number;
}

export interface GraphCanvas {
  /** Restyle every node (one entry per vertex) and every drawn edge. */
  restyle(nodes: NodeLook[], edgeColor: (u: number, v: number) => string): void;
  destroy(): void;
}

/** Ring position of vertex `i` of `n`. */
export function ringPosition(i: number, n: number): { x: number; y: number } {
  const a = (2 * Math.PI * i) / Math.max(1, n);
  return { x: Math.cos(a), y: Math.sin(a) };
}

export function mountGraph(container: HTMLElement, g: GraphView): GraphCanvas {
  const graph = new Graph({ type: 'undirected', multi: false });
  const n = g.keys.length;
  for (let i = 0; i < n; i++) {
    const { x, y } = ringPosition(i, n);
    graph.addNode(i, { x, y, size: 2, color: '#999', label: `key ${g.keys[i]}` });
  }
  const edges = g.edges.slice(0, MAX_DRAWN_EDGES);
  edges.forEach(([u, v, w]) => {
    if (u !== v && !graph.hasEdge(u, v))
      graph.addEdge(u, v, { size: Math.min(3, 0.3 + Math.log2(1 + w) / 4), color: '#ccc' });
  });
  const sigma = new Sigma(graph, container, { renderLabels: false, hideEdgesOnMove: n > 5000 });
  return {
    restyle(nodes, edgeColor) {
      graph.updateEachNodeAttributes((node, attr) => ({ ...attr, ...nodes[Number(node)] }), {
        attributes: ['color', 'size'],
      });
      graph.updateEachEdgeAttributes((_e, attr, s, t) => ({ ...attr, color: edgeColor(Number(s), Number(t)) }), {
        attributes: ['color'],
      });
    },
    destroy() {
      sigma.kill();
    },
  };
}
