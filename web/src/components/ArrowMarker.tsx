/**
 * The arrow head an SVG line points with (`markerEnd="url(#id)"`): a filled
 * triangle in a 10×10 box, drawn `size` user units wide and high, its tip at
 * `refX` on the line's end.
 */
export function ArrowMarker({ id, refX, size, fill }: { id: string; refX: string; size: string; fill: string }) {
  return (
    <marker id={id} viewBox="0 0 10 10" refX={refX} refY="5" markerWidth={size} markerHeight={size} orient="auto">
      <path d="M0,0 L10,5 L0,10 z" fill={fill} />
    </marker>
  );
}
