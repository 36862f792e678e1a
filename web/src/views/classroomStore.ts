/**
 * What the classroom shows, apart from the replay position: the active
 * view. Kept in a store (not component state) so a shared link can set it
 * and the lesson API can open a view at a bookmark.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export interface ClassroomUi {
  viewId: string;
  setView(id: string): void;
}

export const classroomStore = createStore<ClassroomUi>()((set) => ({
  viewId: 'threads',
  setView: (viewId) => set({ viewId }),
}));

export function useClassroom<T>(sel: (s: ClassroomUi) => T): T {
  return useStore(classroomStore, sel);
}
