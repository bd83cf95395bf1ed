# host/: the device's host in user space, linked by the runtime and the commands.
HOST_OBJ = $(B)/host/linux.o $(B)/host/shm.o
