/** A world file (or one beside it) that cannot be opened, read or written as it is. */
export class StoreFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreFileError';
  }
}
