/* stray.c: a file the floor table does not place. */
