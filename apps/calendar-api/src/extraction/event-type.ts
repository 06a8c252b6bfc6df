export type EventType = 'general' | 'check-in' | 'grade';

export function typeForMarker(marker: string | undefined): EventType {
  if (marker === '**') return 'grade';
  if (marker === '*') return 'check-in';
  return 'general';
}
