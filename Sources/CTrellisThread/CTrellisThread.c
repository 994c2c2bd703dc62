#include "CTrellisThread.h"

__thread void *_Nullable trellis_thread_state = 0;
