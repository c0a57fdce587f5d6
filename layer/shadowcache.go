package main

/*
#include <stdlib.h>
#include <stdint.h>
*/
import "C"

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// Instrumentation results kept by code key, and persisted beside the app's
// pipeline caches (docs/decisions/pipeline-shadow-caches.md).
//
// In the process: a module whose code key (its words and options,
// codeid.go) was instrumented before gets that result again, without the
// passes: the same words, sites and precise switch (its precise variant is
// built once for all the modules of the key).
//
// Across processes: when the app reads its pipeline cache's data
// (vkGetPipelineCacheData), the layer writes a file named by the SHA-256 of
// that data and the app's executable's path, in the cache directory: the data of the layer's shadow cache
// (the instrumented pipelines) and every instrumentation result of the
// process. When a later process creates a pipeline cache from the same data
// (the app saved it and loads it), the layer finds the file by the same
// digest: the shadow cache starts with its data, so the driver finds the
// instrumented pipelines, and the results are known before the modules are
// created. The app's cache data itself is never changed.

// results are the instrumentation results by code key, with the code id
// their words carry, guarded by state.mu.
var results = map[gpuav.CodeKey]keptResult{}

type keptResult struct {
	code uint32
	res  gpuav.Result
}

// maxResults bounds results: past it, new results are not kept (a module
// is then instrumented again when created again).
const maxResults = 1 << 16

// resultOfLocked returns the kept result of key instrumented with code
// id code (a result of another code id, after a collision, is none).
// Callers hold state.mu.
func resultOfLocked(key gpuav.CodeKey, code uint32) (gpuav.Result, bool) {
	r, ok := results[key]
	if !ok || r.code != code {
		return gpuav.Result{}, false
	}
	return r.res, true
}

// keepResultLocked keeps an instrumented module's result (a module left
// unchanged is not kept: its words are the caller's). Callers hold
// state.mu.
func keepResultLocked(key gpuav.CodeKey, code uint32, r gpuav.Result) {
	if _, ok := results[key]; !ok && len(results) < maxResults && r.Instrumented {
		results[key] = keptResult{code, r}
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// shadowFileMagic starts every file: its format and version.
const shadowFileMagic = "gpuav-dbg shadow cache 2\n"

// shadowFile is a file's payload (gob), after the magic and the payload's
// CRC-32C (little-endian).
type shadowFile struct {
	// Layer identifies the layer build that wrote it (layerIdentity): a
	// file of another build is not read.
	Layer   string
	Shadow  []byte
	Results []keptEntry
}

type keptEntry struct {
	Key    gpuav.CodeKey
	Code   uint32
	Result gpuav.KeptResult
}

// cacheDirOnce is the directory of the kept caches: the cache_dir option
// (options.CacheDir, read from the environment only), else the user's
// cache directory; "" keeps nothing.
var cacheDirOnce = sync.OnceValue(func() string {
	var d string
	withLock(func() { d = strings.TrimSpace(settingsLocked().CacheDir) })
	switch {
	case strings.EqualFold(d, "off") || d == "0":
		return ""
	case d != "":
		return d
	}
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "gpuav-dbg")
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return filepath.Join(h, ".cache", "gpuav-dbg")
	}
	return ""
})

// layerIdentity names this build of the layer: its shared object's path,
// size, modification time and inode (from /proc/self/maps), so that a file
// written by another build is not read.
var layerIdentity = sync.OnceValue(func() string {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, "/")
		if i < 0 || !strings.Contains(line[i:], "libVkLayer_gpuav_dbg") {
			continue
		}
		path := line[i:]
		st, err := os.Stat(path)
		if err != nil {
			return ""
		}
		return fmt.Sprintf("%s %d %d %v", path, st.Size(), st.ModTime().UnixNano(), inode(st))
	}
	return ""
})

// appKey is the digest that names the file kept for app cache data: of
// the app's executable's path and the data (a driver whose caches hold
// nothing gives every app the same data, its header).
func appKey(appData []byte) [sha256.Size]byte {
	exe, _ := os.Executable()
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", exe)
	h.Write(appData)
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// shadowPath is the file kept for app cache data of digest d (appKey).
func shadowPath(dir string, d [sha256.Size]byte) string {
	return filepath.Join(dir, hex.EncodeToString(d[:])+".shadow")
}

// saved is, by appKey, how many results and shadow bytes the process's
// last file for that key held: an app that reads the same data again with
// nothing new instrumented or cached writes nothing. Guarded by state.mu.
var saved = map[[sha256.Size]byte][2]int{}

// loadShadowFile reads and checks the file kept for app cache data.
func loadShadowFile(dir string, appData []byte) (*shadowFile, error) {
	b, err := os.ReadFile(shadowPath(dir, appKey(appData)))
	if err != nil {
		return nil, err
	}
	rest, ok := bytes.CutPrefix(b, []byte(shadowFileMagic))
	if !ok || len(rest) < 4 {
		return nil, errors.New("not a shadow cache file of this version")
	}
	sum, payload := binary.LittleEndian.Uint32(rest), rest[4:]
	if crc32.Checksum(payload, castagnoli) != sum {
		return nil, errors.New("checksum mismatch")
	}
	var f shadowFile
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&f); err != nil {
		return nil, err
	}
	if id := layerIdentity(); id == "" || f.Layer != id {
		return nil, errors.New("written by another build of the layer")
	}
	return &f, nil
}

// writeShadowFile writes f for app cache data, through a temporary file
// renamed into place, in a directory of mode 0700.
func writeShadowFile(dir string, appData []byte, f *shadowFile) error {
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(f); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(payload.Bytes(), castagnoli))
	tmp, err := os.CreateTemp(dir, ".shadow-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(shadowFileMagic)
	if err == nil {
		_, err = tmp.Write(sum[:])
	}
	if err == nil {
		_, err = tmp.Write(payload.Bytes())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), shadowPath(dir, appKey(appData)))
}

// goShadowCacheLoad is called when the app creates a pipeline cache from
// data: it returns 1 and C-malloc'd data for the layer's shadow cache when
// a file was kept for that data, whose instrumentation results it also
// takes; 0 otherwise.
//
//export goShadowCacheLoad
func goShadowCacheLoad(dev C.uint64_t, data unsafe.Pointer, n C.size_t, out *unsafe.Pointer, outN *C.size_t) (ok C.int) {
	defer recovered("goShadowCacheLoad")
	*out, *outN = nil, 0
	dir := cacheDirOnce()
	if dir == "" || data == nil || n == 0 {
		return 0
	}
	f, err := loadShadowFile(dir, unsafe.Slice((*byte)(data), int(n)))
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			logf(levelInfo, "pipeline cache: the layer's kept shadow cache is not used: %v", err)
		}
		return 0
	}
	withLock(func() {
		for _, e := range f.Results {
			keepResultLocked(e.Key, e.Code, e.Result.Result())
		}
	})
	logf(levelInfo, "pipeline cache: the layer's shadow cache starts with %d bytes and %d instrumented modules "+
		"kept from an earlier run", len(f.Shadow), len(f.Results))
	if len(f.Shadow) == 0 {
		return 0
	}
	p := C.malloc(C.size_t(len(f.Shadow)))
	if p == nil {
		return 0
	}
	copy(unsafe.Slice((*byte)(p), len(f.Shadow)), f.Shadow)
	*out, *outN = p, C.size_t(len(f.Shadow))
	return 1
}

// goShadowCacheSave is called when the app has read its pipeline cache's
// data: it keeps the shadow cache's data and the process's instrumentation
// results in a file named by the app data's digest.
//
//export goShadowCacheSave
func goShadowCacheSave(dev C.uint64_t, appData unsafe.Pointer, n C.size_t, shadow unsafe.Pointer, shadowN C.size_t) {
	defer recovered("goShadowCacheSave")
	dir := cacheDirOnce()
	id := layerIdentity()
	if dir == "" || id == "" || appData == nil || n == 0 {
		return
	}
	app := unsafe.Slice((*byte)(appData), int(n))
	key := appKey(app)
	f := &shadowFile{Layer: id}
	if shadow != nil && shadowN > 0 {
		f.Shadow = C.GoBytes(shadow, C.int(shadowN))
	}
	same := false
	withLock(func() {
		now := [2]int{len(results), len(f.Shadow)}
		if was, ok := saved[key]; ok && was == now {
			same = true
			return
		}
		saved[key] = now
		for k, r := range results {
			f.Results = append(f.Results, keptEntry{k, r.code, r.res.Keep()})
		}
	})
	if same {
		return
	}
	if err := writeShadowFile(dir, app, f); err != nil {
		logf(levelWarning, "pipeline cache: cannot keep the layer's shadow cache in %s: %v", dir, err)
	}
}

func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Ino
	}
	return 0
}
