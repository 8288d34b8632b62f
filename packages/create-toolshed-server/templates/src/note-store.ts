/** The example's data: notes kept in memory. Replace it with what your server serves. */
export interface Note {
  id: string;
  title: string;
  text: string;
}

export interface NoteStore {
  search(query: string, limit: number): Note[];
  get(id: string): Note | undefined;
  delete(id: string): boolean;
}

export function createNoteStore(notes: readonly Note[]): NoteStore {
  const byId = new Map(notes.map((note) => [note.id, note]));
  return {
    search(query, limit) {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      return [...byId.values()]
        .filter((note) => words.every((word) => `${note.title} ${note.text}`.toLowerCase().includes(word)))
        .slice(0, limit);
    },
    get: (id) => byId.get(id),
    delete: (id) => byId.delete(id),
  };
}
