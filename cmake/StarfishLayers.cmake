# The layering check's view of the build (scripts/check_layers.py, docs/developing.md
# "Layers"): every library and executable defined in the project's folders, with
# the folder that defines it and the libraries it links, written at generate time to
# ${CMAKE_BINARY_DIR}/layers/targets.txt.
function(starfish_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    starfish_collect_targets(${sub} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(starfish_write_layer_targets)
  starfish_collect_targets(${PROJECT_SOURCE_DIR} all)
  set(content "")
  foreach(t IN LISTS all)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "UTILITY" OR type STREQUAL "GLOBAL_TARGET")
      continue()
    endif()
    get_target_property(dir ${t} SOURCE_DIR)
    # INTERFACE libraries carry their links in INTERFACE_LINK_LIBRARIES only.
    if(type STREQUAL "INTERFACE_LIBRARY")
      set(links "$<TARGET_PROPERTY:${t},INTERFACE_LINK_LIBRARIES>")
    else()
      set(links "$<TARGET_PROPERTY:${t},LINK_LIBRARIES>;$<TARGET_PROPERTY:${t},INTERFACE_LINK_LIBRARIES>")
    endif()
    string(APPEND content "${t}\t${dir}\t${links}\n")
  endforeach()
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/layers/targets.txt CONTENT "${content}")
endfunction()
