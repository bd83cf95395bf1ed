# cmd/: devtraced serves the device's files through FUSE; devtrace is the client.
FUSE_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE_LIBS := $(shell pkg-config --libs fuse3 2>/dev/null || echo -lfuse3 -lpthread)

DEVTRACED_OBJ = $(B)/cmd/devtraced.o $(B)/cmd/fs.o $(B)/cmd/mnt.o $(B)/cmd/live.o $(B)/cmd/aggs.o
DEVTRACE_OBJ = $(B)/cmd/devtrace.o $(B)/cmd/run.o $(B)/cmd/record.o $(B)/cmd/live.o $(B)/cmd/aggs.o

# dev/ and host/ rules come after ours, so their names are spelled out here
CMD_LIBS = $(HOST_OBJ) $(B)/libdev.a

$(B)/cmd/devtraced.o $(B)/cmd/fs.o $(B)/cmd/mnt.o: ALL_CFLAGS += $(FUSE_CFLAGS)

bin/devtraced: $(DEVTRACED_OBJ) $(CMD_LIBS)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(FUSE_LIBS)

bin/devtrace: $(DEVTRACE_OBJ) $(CMD_LIBS)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ -lpthread

PROGS += bin/devtraced bin/devtrace
