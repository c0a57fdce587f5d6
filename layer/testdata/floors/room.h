void room_hook(const char *s);
void room_fn(void);
