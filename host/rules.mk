# host/: the device's host in user space, linked by the runtime and the commands.
# The files, callers first (host/shm.h); tests/layers checks that no file calls back up.
HOST_FILES = shmsess shmctl shmmap shmlock shmpath linux
HOST_SRC = $(HOST_FILES:%=host/%.c)
HOST_OBJ = $(HOST_FILES:%=$(B)/host/%.o)
