#ifndef C_TRELLIS_THREAD_H
#define C_TRELLIS_THREAD_H

// The calling thread's Trellis state (`ThreadState`), as a thread-local variable.
//
// Why C: Swift has no thread-local variables. `pthread_getspecific` costs a call and a lazy
// global's check of its key per read, and every `@Inject` wrapper an object's initialiser
// makes reads the thread's state (a request whose objects have fourteen such properties read
// it fourteen times). A thread-local variable read from an inline function is a load or two.
//
// The pointer is unretained: the thread's pthread key (`ThreadState.key`) owns the state and
// releases it when the thread exits, after clearing this variable (on that thread), so no read
// can see a freed state.

/// The calling thread's state, or NULL before its first use on this thread.
extern __thread void *_Nullable trellis_thread_state;

/// The calling thread's state, or NULL.
static inline void *_Nullable trellis_current_thread_state(void) {
    return trellis_thread_state;
}

/// Sets the calling thread's state (NULL when the thread's key releases it).
static inline void trellis_set_current_thread_state(void *_Nullable state) {
    trellis_thread_state = state;
}

#endif
